/**
 * Every KV key the service writes, one builder per kind, under a versioned prefix so that a
 * change of value format can move to v2: without colliding. The README's KV table lists them.
 * Secrets never appear in a key: tokens and API keys are named by their SHA-256.
 */
export const kvKeys = {
  /** Cached API key record (id, scopes, expiry), so that a warm request needs no D1 query. */
  apiKey: (keyHash: string) => `v1:apikey:${keyHash}`,
  /** An OAuth access token's record; refresh tokens and grants live in D1 (src/auth/oauth-tokens.ts). */
  accessToken: (tokenHash: string) => `v1:at:${tokenHash}`,
  rateLimit: (subject: string, windowStart: number) => `v1:rl:${subject}:${windowStart}`,
  /** A POST's kept answer, sealed, under the SHA-256 of its Idempotency-Key. */
  idempotency: (credentialId: string, keyHash: string) => `v1:idem:${credentialId}:${keyHash}`,
  /** The marker of a POST still running with that Idempotency-Key. */
  idempotencyLock: (credentialId: string, keyHash: string) => `v1:idem-lock:${credentialId}:${keyHash}`,
  /** An LTI platform's AGS access token, sealed, under the platform and a hash of its registration (src/lti/platform-token.ts). */
  ltiToken: (platformId: string, registrationHash: string) => `v1:lti-token:${platformId}:${registrationHash}`,
};

/** How long an Idempotency-Key answer is kept for replay (Stripe's window). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** KV refuses expirations less than 60 seconds away. */
const KV_MIN_EXPIRATION_TTL_SECONDS = 60;

/** An expirationTtl KV accepts for something that must live `seconds`. */
export const kvTtl = (seconds: number) => Math.max(Math.ceil(seconds), KV_MIN_EXPIRATION_TTL_SECONDS);
