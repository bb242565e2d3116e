import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { SCOPES } from "../../lib/scopes";
import { singleLineText } from "../../lib/text";

export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
const MAX_ROTATION_GRACE_SECONDS = 30 * 86_400;

export const ScopeList = z
  .array(z.enum(SCOPES))
  .min(1)
  .max(SCOPES.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, { message: "Scopes must be unique." })
  .openapi({ uniqueItems: true, example: ["quizzes:read", "submissions:write"] });

export const ApiKeyCreate = z
  .strictObject({
    name: singleLineText(200).openapi({ example: "grading service" }),
    scopes: ScopeList,
    // abort: a malformed timestamp gets one error, not a second "in the future" one. Stored
    // normalised (milliseconds, Z) so that it reads like every other timestamp and compares as text.
    expires_at: z.iso
      .datetime({ abort: true })
      .refine((at) => Date.parse(at) > Date.now(), { message: "expires_at must be in the future." })
      .overwrite((at) => new Date(at).toISOString())
      .nullable()
      .optional()
      .openapi({ maxLength: 40, example: "2027-06-30T00:00:00.000Z" }),
  })
  .openapi("ApiKeyCreate", {
    example: { name: "grading service", scopes: ["quizzes:read", "submissions:write"], expires_at: "2030-06-30T00:00:00.000Z" },
  });

export const ApiKeyRotate = z
  .strictObject({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS)
      .default(DEFAULT_ROTATION_GRACE_SECONDS)
      .openapi({ description: "How long the old key keeps working." }),
  })
  .openapi("ApiKeyRotate", { example: { grace_seconds: 3600 } });

/** ApiKeyCreate's example as the API answers it, without the key itself; used since. */
export const API_KEY_EXAMPLE = {
  id: "key_01kamz3f7c9n0p8s6e5vwx2y4r",
  name: "grading service",
  prefix: "qz_live_eyWk",
  scopes: ["quizzes:read", "submissions:write"],
  created_at: "2026-11-20T09:00:00.000Z",
  expires_at: "2030-06-30T00:00:00.000Z",
  revoked_at: null,
  rotated_to: null,
  last_used_at: "2026-11-23T09:29:58.120Z",
};

export const ApiKey = z
  .object({
    id: idSchema("apiKey"),
    name: z.string(),
    prefix: z.string().openapi({ description: "The key's first characters, to tell keys apart.", example: "qz_live_4fGh" }),
    scopes: z.array(z.string()),
    created_at: z.string().datetime(),
    expires_at: z.string().datetime().nullable(),
    revoked_at: z.string().datetime().nullable(),
    rotated_to: z.string().nullable().openapi({ description: "The key that replaced this one." }),
    last_used_at: z.string().datetime().nullable(),
  })
  .openapi("ApiKey", { example: API_KEY_EXAMPLE });

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself. Shown only in this response: store it now." }),
}).openapi("CreatedApiKey", {
  example: { ...API_KEY_EXAMPLE, last_used_at: null, key: "qz_live_eyWkLoNRAkt3UurqilbIjLMLqOJb8e761Ky8Kf" },
});

export const ApiKeyUsage = z
  .object({
    key_id: idSchema("apiKey"),
    total_requests: z.number().int(),
    last_used_at: z.string().datetime().nullable(),
    daily: z.array(z.object({ date: z.string(), requests: z.number().int(), errors: z.number().int() })),
  })
  .openapi("ApiKeyUsage", {
    example: {
      key_id: API_KEY_EXAMPLE.id,
      total_requests: 1842,
      last_used_at: API_KEY_EXAMPLE.last_used_at,
      daily: [
        { date: "2026-11-23", requests: 632, errors: 1 },
        { date: "2026-11-22", requests: 1210, errors: 3 },
      ],
    },
  });
