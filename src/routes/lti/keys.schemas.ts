import { z } from "@hono/zod-openapi";

const ToolKey = z.object({
  kid: z.string(),
  status: z
    .enum(["current", "previous"])
    .openapi({ description: "current: signs; previous: listed until listed_until, never signs." }),
  created_at: z.string().datetime(),
  listed_until: z.string().datetime().nullable(),
});

export const ToolKeys = z.object({ keys: z.array(ToolKey) }).openapi("LtiToolKeys", {
  example: {
    keys: [
      { kid: "ltk_01m83vvae005egq0h49a0et4ex", status: "current", created_at: "2026-11-23T09:30:00.000Z", listed_until: null },
      {
        kid: "ltk_01kamz3f7c9n0p8s6e5vwx2y4r",
        status: "previous",
        created_at: "2026-11-20T09:00:00.000Z",
        listed_until: "2026-11-24T09:30:00.000Z",
      },
    ],
  },
});

export const JsonWebKeySet = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("JsonWebKeySet", {
  example: {
    keys: [{ kty: "RSA", n: "0vx7agoebGcQSuu…", e: "AQAB", kid: "ltk_01kamz3f7c9n0p8s6e5vwx2y4r", alg: "RS256", use: "sig" }],
  },
});
