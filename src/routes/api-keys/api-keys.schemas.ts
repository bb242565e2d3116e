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
  .openapi("ApiKey");

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "The key itself. Shown only in this response: store it now." }),
}).openapi("CreatedApiKey");

export const ApiKeyUsage = z
  .object({
    key_id: idSchema("apiKey"),
    total_requests: z.number().int(),
    last_used_at: z.string().datetime().nullable(),
    daily: z.array(z.object({ date: z.string(), requests: z.number().int(), errors: z.number().int() })),
  })
  .openapi("ApiKeyUsage");
