import type { z } from "@hono/zod-openapi";
import { invalidRequest, OAuthError } from "../../lib/errors";

/**
 * The parameters of an OAuth request, read from the body by hand before the schema that
 * documents them validates them (`validParams`), because RFC 6749 §3.2 asks for things no
 * validator does: a parameter sent twice is an error, and a parameter sent without a value
 * counts as omitted.
 */
export type OAuthParams = ReadonlyMap<string, string>;

/** A token request is a few hundred bytes; a body this large is not one. */
export const MAX_OAUTH_BODY_BYTES = 16 * 1024;

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
/** Parameter names we may quote in an error description (RFC 6749 restricts its characters). */
const QUOTABLE_NAME = /^[a-z_]{1,32}$/;

export async function readParams(request: Request): Promise<OAuthParams> {
  // RFC 6749 §3.2: parameters travel in the body; a query string would put them in logs.
  if (new URL(request.url).search !== "")
    throw invalidRequest("Send the parameters in the body; this endpoint takes no query parameters.");
  const type = request.headers.get("content-type")?.trim() ?? "";
  const text = await readBody(request);
  if (type === "" && text === "") return new Map();
  if (FORM_TYPE.test(type)) return formParams(text);
  if (JSON_TYPE.test(type)) return jsonParams(text);
  throw invalidRequest("Send the parameters as application/x-www-form-urlencoded (or application/json).");
}

function formParams(text: string): OAuthParams {
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (params.has(name)) throw repeated(name);
    params.set(name, value);
  }
  return withoutEmpty(params);
}

function jsonParams(text: string): OAuthParams {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidRequest("The body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidRequest("The JSON body must be an object of string parameters.");
  // JSON.parse keeps the last of repeated keys, so a repetition cannot be seen here.
  const params = new Map<string, string>();
  for (const [name, value] of Object.entries(body)) {
    if (value === null) continue;
    if (typeof value !== "string")
      throw invalidRequest(
        QUOTABLE_NAME.test(name) ? `The ${name} parameter must be a string.` : "Every parameter must be a string.",
      );
    params.set(name, value);
  }
  return withoutEmpty(params);
}

/** RFC 6749 §3.2: parameters sent without a value are treated as omitted. */
function withoutEmpty(params: Map<string, string>): OAuthParams {
  for (const [name, value] of params) if (value === "") params.delete(name);
  return params;
}

/**
 * The parameters as `schema` (the one in oauth.schemas.ts that documents the endpoint) reads
 * them. Its first failure becomes the RFC 6749 §5.2 error: unsupported_grant_type for a
 * grant_type it does not list, else invalid_request naming the parameter.
 */
export function validParams<T extends z.ZodType>(schema: T, params: OAuthParams): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? "");
  // The schema's own keys, so quotable; anything else is named generically.
  if (!QUOTABLE_NAME.test(name)) throw invalidRequest("The parameters are invalid.");
  if (!params.has(name)) throw invalidRequest(`The ${name} parameter is required.`);
  const expected = issue?.code === "invalid_value" ? ` must be ${issue.values.join(" or ")}` : " parameter is invalid";
  throw new OAuthError(name === "grant_type" ? "unsupported_grant_type" : "invalid_request", `The ${name}${expected}.`);
}

const repeated = (name: string) =>
  invalidRequest(
    QUOTABLE_NAME.test(name) ? `The ${name} parameter is sent more than once.` : "A parameter is sent more than once.",
  );

/** The body as UTF-8 text, refused once it grows past the limit (whatever Content-Length claims). */
async function readBody(request: Request): Promise<string> {
  const tooLarge = () => new OAuthError("invalid_request", `The body is larger than ${MAX_OAUTH_BODY_BYTES} bytes.`, 413);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_OAUTH_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_OAUTH_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalidRequest("The body is not valid UTF-8.");
  }
}

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The requested scopes, without repeats; null when the request names none. */
export function parseScope(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  // Extra spaces are forgiven; a scope list that is only spaces is not a scope list.
  const tokens = value.split(" ").filter((t) => t !== "");
  if (tokens.length === 0 || !tokens.every((t) => SCOPE_TOKEN.test(t)))
    throw new OAuthError("invalid_scope", "The scope must be scope names separated by spaces.");
  return [...new Set(tokens)];
}

/** invalid_scope unless every requested scope is one the client holds. */
export function assertScopesAllowed(requested: readonly string[], allowed: readonly string[]): void {
  const refused = requested.filter((s) => !allowed.includes(s));
  // Scope tokens are checked against SCOPE_TOKEN above, so they are safe to quote.
  if (refused.length > 0) throw new OAuthError("invalid_scope", `The client may not request: ${refused.join(" ")}.`);
}
