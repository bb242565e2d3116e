import {
  ACCESS_TOKEN_PREFIX,
  API_KEY_PREFIX,
  isWellFormedApiKey,
  LEARNER_TOKEN_PREFIX,
  REPORT_TOKEN_PREFIX,
} from "../domain/credential-format";
import { ApiError } from "../lib/errors";
import { REALM } from "../lib/scopes";

/**
 * Credential identification, free of I/O: which credential a request's headers present, or the
 * error that says why none is usable. Looking the credential up (KV, D1) is the caller's part.
 */
export type PresentedCredential =
  | { type: "api_key"; key: string }
  | { type: "access_token"; token: string }
  | { type: "learner_token"; token: string }
  | { type: "report_token"; token: string };

/** Bearer tokens by prefix: access tokens, learner tokens and report tokens (§17). */
const BEARER_TOKENS = [
  [ACCESS_TOKEN_PREFIX, "access_token"],
  [LEARNER_TOKEN_PREFIX, "learner_token"],
  [REPORT_TOKEN_PREFIX, "report_token"],
] as const;

/** RFC 6750 §3: a 401 without error details when no credential came, with them otherwise. */
const missingCredential = () =>
  new ApiError("unauthorized", "Send an API key (X-API-Key or Authorization: Bearer) or an OAuth access token.", {
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}"` },
  });

export const invalidCredential = (description: string) =>
  new ApiError("invalid_token", description, {
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"` },
  });

/**
 * X-API-Key carries API keys only; Authorization: Bearer an API key or an access token (told apart
 * by prefix); both headers with different credentials → 400. A malformed key (bad checksum) is
 * refused here, before any lookup.
 */
export function identifyCredential(headers: { apiKey?: string; authorization?: string }): PresentedCredential | ApiError {
  let bearer: string | undefined;
  if (headers.authorization !== undefined) {
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(headers.authorization);
    if (!match?.[1]) return invalidCredential("The Authorization header must be Bearer <token>.");
    bearer = match[1];
  }
  const apiKey = headers.apiKey?.trim();
  if (apiKey !== undefined && bearer !== undefined && apiKey !== bearer)
    return new ApiError("conflicting_credentials", "X-API-Key and Authorization carry different credentials; send one.");
  const value = apiKey ?? bearer;
  if (value === undefined) return missingCredential();
  for (const [prefix, type] of BEARER_TOKENS)
    if (value.startsWith(prefix)) {
      if (apiKey !== undefined)
        return invalidCredential("X-API-Key carries API keys only; send access tokens as Authorization: Bearer.");
      return { type, token: value } as PresentedCredential;
    }
  if (!value.startsWith(API_KEY_PREFIX) || !isWellFormedApiKey(value))
    return invalidCredential("The credential is not a well-formed API key or access token.");
  return { type: "api_key", key: value };
}
