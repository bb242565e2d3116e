import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../lib/errors";

const MAX_BODY_BYTES = 1024 * 1024;

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * Guards every JSON route: a body of another media type is a 415 and a body over 1 MiB a 413,
 * both decided before the body is parsed (the size also while it streams, so a missing or
 * false Content-Length cannot get past it). What either leaves unread is drained by
 * drainRequestBody (request-body.ts) before the answer leaves.
 */
export function jsonBodyGuard(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`);
    },
  });
  return async (c, next) => {
    if (!METHODS_WITH_BODY.has(c.req.method) || !hasBody(c.req.raw)) return next();
    const type = c.req.header("content-type") ?? "";
    if (!JSON_MEDIA_TYPE.test(type.trim())) {
      throw new ApiError(
        "unsupported_media_type",
        `Send the body as application/json; charset=utf-8${type ? `, not ${type}` : ""}.`,
      );
    }
    return limit(c, next);
  };
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return length !== "0";
  return request.headers.has("transfer-encoding") || request.body !== null;
}
