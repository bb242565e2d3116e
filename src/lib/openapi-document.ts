import type { OpenAPIHono } from "@hono/zod-openapi";
import { IDEMPOTENCY_TTL_SECONDS } from "../middleware/idempotency";

const DESCRIPTION = `Author quizzes, register users, take and grade submissions, read analytics.

Every /v1 operation needs a credential: an API key (X-API-Key or Authorization: Bearer) or an
OAuth 2.0 access token from POST /oauth/token (client credentials). Errors are RFC 9457 problem
details (application/problem+json) with a stable \`code\`, except on /oauth/*, where they follow
RFC 6749 §5.2. Every /v1 answer carries RateLimit-Policy and RateLimit headers; every POST under
/v1 accepts an Idempotency-Key.`;

type Operation = {
  parameters?: unknown[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
};

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

/**
 * The generated document, plus what middleware adds to every operation and zod routes cannot
 * declare one by one: the Idempotency-Key parameter of POSTs under /v1, and the rate-limit and
 * request-id headers of every answer.
 */
export function openApiDocument(app: OpenAPIHono<any, any, any>, origin: string) {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Quiz API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: origin }],
  });
  document.components ??= {};
  document.components.parameters = {
    ...document.components.parameters,
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: `1–255 visible ASCII characters. The same key with the same request within ${IDEMPOTENCY_TTL_SECONDS / 3600} h replays the first answer (Idempotent-Replayed: true); with a different request → 409 idempotency_key_reused; while the first is running elsewhere → 409 idempotency_key_in_progress.`,
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
  };
  document.components.headers = {
    ...document.components.headers,
    "X-Request-Id": { description: "The request's id (the caller's, if sane), also in problem bodies.", schema: { type: "string" } },
    RateLimit: { description: 'Remaining requests and seconds to reset: "default";r=599;t=42.', schema: { type: "string" } },
    "RateLimit-Policy": { description: 'The policy: "default";q=600;w=60.', schema: { type: "string" } },
    "Retry-After": { description: "Seconds to wait (429 only).", schema: { type: "integer" } },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const v1 = path.startsWith("/v1/");
      if (v1 && method === "post")
        operation.parameters = [...(operation.parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }];
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
          ...(v1
            ? {
                RateLimit: { $ref: "#/components/headers/RateLimit" },
                "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
              }
            : {}),
          ...(status === "429" ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } } : {}),
        };
      }
    }
  }
  return document;
}
