import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { pageQuery } from "../../lib/pagination";

/** A week: the longest extra time an accommodation may grant. */
const MAX_EXTRA_TIME_SECONDS = 7 * 86_400;
const MAX_EXTRA_ATTEMPTS = 100;

export const AccommodationPut = z
  .strictObject({
    extra_time_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_EXTRA_TIME_SECONDS)
      .default(0)
      .openapi({ description: "Seconds added to the quiz's time limit for this user; absent is 0.", example: 900 }),
    extra_attempts: z
      .number()
      .int()
      .min(0)
      .max(MAX_EXTRA_ATTEMPTS)
      .default(0)
      .openapi({ description: "Attempts allowed beyond the quiz's max_attempts; absent is 0.", example: 1 }),
  })
  .openapi("AccommodationPut", { example: { extra_time_seconds: 900, extra_attempts: 1 } });

/** AccommodationPut's example as stored for the examples' user and quiz. */
export const ACCOMMODATION_EXAMPLE = {
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  extra_time_seconds: 900,
  extra_attempts: 1,
  updated_at: "2026-11-21T12:00:00.000Z",
};

export const Accommodation = z
  .object({
    quiz_id: idSchema("quiz"),
    user_id: idSchema("user"),
    extra_time_seconds: z.number().int(),
    extra_attempts: z.number().int(),
    updated_at: z.string().datetime(),
  })
  .openapi("Accommodation", { example: ACCOMMODATION_EXAMPLE });
export type Accommodation = z.infer<typeof Accommodation>;

export const AccommodationListQuery = z.strictObject(pageQuery("user"));
