import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ConflictCode, PROBLEMS, type ProblemCode, statusTitle } from "./problems";
import { REALM } from "./scopes";

/** One invalid field, as listed in a problem body's `errors`. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * The error type of the service, but for the OAuth endpoints (OAuthError below). Anything thrown
 * while handling a request ends up in `onError`, which writes an ApiError as an RFC 9457 problem
 * body and anything else as a generic 500 (logged with the request id, never echoed). An error is
 * keyed by its code: the status comes from the catalogue (problems.ts), so a code is answered with
 * one status everywhere, and the compiler refuses a code the catalogue does not list.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** Extension members of the problem body (RFC 9457 §3.2), e.g. the launch check that failed. */
      members?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = PROBLEMS[code].status as ContentfulStatusCode;
  }
}

export const notFound = (what: string) => new ApiError("not_found", `${what} not found.`);
/** A 409 of the catalogue: the request conflicts with the resource's state. */
export const conflict = (code: ConflictCode, detail: string) => new ApiError(code, detail);
export const validationFailed = (errors: FieldError[]) =>
  new ApiError("validation_failed", describeFieldErrors(errors), { errors });

/**
 * The messages of an error and of its causes. Drizzle wraps a failed D1 statement in an error
 * whose message is the SQL ("Failed query: …") and keeps D1's own message (the constraint that
 * failed) in `cause`.
 */
export function errorChainText(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    parts.push(String(e));
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join("\n");
}

function describeFieldErrors(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return "The request is invalid.";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return `${first.path ? `${first.path}: ` : ""}${first.message}${more}`;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
  [member: string]: unknown;
}

export function problemBody(error: ApiError, requestId: string): ProblemBody {
  return {
    // First, so that an extension never overrides a standard member.
    ...error.options.members,
    type: `/problems/${error.code}`,
    title: statusTitle(error.status),
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...(error.options.errors ? { errors: error.options.errors } : {}),
  };
}

/**
 * The OAuth endpoints (/oauth/*) answer errors in RFC 6749 §5.2's shape, `{ error,
 * error_description }`, not as problem details: OAuth client libraries parse that shape and
 * nothing else. `onError` writes it for every error thrown under /oauth/*.
 * temporarily_unavailable (RFC 6749 §4.1.2.1) answers the endpoints' per-IP rate limit.
 */
export const OAUTH_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Token responses and their errors must not be cached (RFC 6749 §5.1); Pragma for HTTP/1.0 caches. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

type OAuthErrorStatus = 400 | 401 | 405 | 413 | 429 | 500;

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    /** Shown to the client. RFC 6749 allows only printable ASCII without `"` and `\`; never echo input here. */
    readonly description: string,
    readonly status: OAuthErrorStatus = error === "invalid_client" ? 401 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);

/** RFC 6749 §5.2: a failed client authentication is a 401 with a challenge for the scheme we accept. */
export const invalidClient = (description = "Client authentication failed.") =>
  new OAuthError("invalid_client", description, 401, { "WWW-Authenticate": `Basic realm="${REALM}"` });
