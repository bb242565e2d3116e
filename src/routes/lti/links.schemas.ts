import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { PLATFORM_EXAMPLE } from "./platforms.schemas";

export const LinkParams = z.object({
  resource_link_id: z.string().min(1).max(255).openapi({
    description: "The resource link's id, as launches carry it in their resource_link claim (URL-encoded in the path).",
    example: "200d101f-2c14-434a-a0f3-57c2a42369fd",
  }),
});

export const LinkPut = z.strictObject({ platform_id: idSchema("ltiPlatform"), quiz_id: idSchema("quiz") }).openapi("LtiLinkPut", {
  example: { platform_id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r", quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" },
});

/** LtiLinkPut's example as stored: a new link. */
export const LINK_EXAMPLE = {
  resource_link_id: "200d101f-2c14-434a-a0f3-57c2a42369fd",
  platform_id: PLATFORM_EXAMPLE.id,
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  created_at: "2026-11-21T10:05:00.000Z",
  updated_at: "2026-11-21T10:05:00.000Z",
};

export const Link = z
  .object({
    resource_link_id: z.string(),
    platform_id: idSchema("ltiPlatform"),
    quiz_id: idSchema("quiz"),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("LtiLink", { example: LINK_EXAMPLE });
