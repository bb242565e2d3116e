import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../lib/errors";

const MAX_BODY_BYTES = 1024 * 1024;

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** A route whose body is a file rather than JSON: the media types it takes and its own size limit. */
interface UploadRule {
  mediaTypes: readonly string[];
  maxBytes: number;
  /** How the limit reads in a 413's detail, e.g. "10 MiB". */
  limitText: string;
}

/** Routes with their own body rules, by "METHOD /path" (the path as requested, e.g. "POST /v1/imports"). */
export type UploadRules = Readonly<Record<string, UploadRule>>;

const JSON_RULE = { maxBytes: MAX_BODY_BYTES, limitText: "1 MiB" };

/** The bodyLimit middleware of a rule: a 413 decided from Content-Length, or counted while the body streams. */
function limiter(rule: { maxBytes: number; limitText: string }): MiddlewareHandler {
  return bodyLimit({
    maxSize: rule.maxBytes,
    onError: () => {
      throw new ApiError("payload_too_large", `The body is larger than ${rule.maxBytes} bytes (${rule.limitText}).`);
    },
  });
}

/** The media type without its parameters, lower-case ("text/plain; charset=utf-8" → "text/plain"). */
const essence = (type: string) => (type.split(";")[0] ?? "").trim().toLowerCase();

/**
 * Guards every body of /v1: a JSON route's body of another media type is a 415 and a body over
 * 1 MiB a 413; a route listed in `uploads` (a file upload such as POST /v1/imports) takes only its
 * own media types, up to its own size. Both are decided before the body is parsed (the size also
 * while it streams, so a missing or false Content-Length cannot get past it). What either leaves
 * unread is drained (request-body.ts) before the answer leaves.
 */
export function jsonBodyGuard(uploads: UploadRules = {}): MiddlewareHandler {
  const jsonLimit = limiter(JSON_RULE);
  const uploadLimits = new Map(Object.entries(uploads).map(([route, rule]) => [route, { rule, limit: limiter(rule) }]));
  const uploadPaths = new Set(Object.keys(uploads).map((route) => route.slice(route.indexOf(" ") + 1)));
  return async (c, next) => {
    if (!METHODS_WITH_BODY.has(c.req.method) || !hasBody(c.req.raw)) return next();
    const type = c.req.header("content-type") ?? "";
    const upload = uploadLimits.get(`${c.req.method} ${c.req.path}`);
    if (upload) {
      if (!upload.rule.mediaTypes.includes(essence(type)))
        throw new ApiError(
          "unsupported_media_type",
          `Send the file as one of ${upload.rule.mediaTypes.join(", ")}${type ? `, not ${type}` : ""}.`,
        );
      return upload.limit(c, next);
    }
    // Another method on an upload's path is no JSON route either: the app answers it 405 (Allow)
    // and the drain (request-body.ts) reads what it sent.
    if (uploadPaths.has(c.req.path)) return next();
    if (!JSON_MEDIA_TYPE.test(type.trim())) {
      throw new ApiError(
        "unsupported_media_type",
        `Send the body as application/json; charset=utf-8${type ? `, not ${type}` : ""}.`,
      );
    }
    return jsonLimit(c, next);
  };
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return length !== "0";
  return request.headers.has("transfer-encoding") || request.body !== null;
}
