import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { kvKeys } from "../lib/kv-keys";

/** How long an answer is kept for replay (Stripe's window). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The response headers a replay repeats. */
const REPLAYED_HEADERS = ["content-type", "location"];

interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface IdempotencyRecord {
  request_hash: string;
  state: "in_progress" | "done";
  answer?: StoredAnswer;
}

/** Requests being executed by this isolate, so that a concurrent duplicate waits for the answer. */
const inFlight = new Map<string, { requestHash: string; answer: Promise<StoredAnswer | null> }>();

const reused = () =>
  new ApiError(409, "idempotency_key_reused", "This Idempotency-Key was used with a different request.");
const inProgress = () =>
  new ApiError(409, "idempotency_key_in_progress", "A request with this Idempotency-Key is still being processed; retry shortly.");

/** The stored answer, with the headers this request has gathered so far (request id, rate limit). */
function replay(c: Context<AppEnv>, answer: StoredAnswer): Response {
  const headers = { ...answer.headers, "Idempotent-Replayed": "true" };
  return answer.body
    ? c.body(answer.body, answer.status as ContentfulStatusCode, headers)
    : c.body(null, answer.status as StatusCode, headers);
}

/**
 * Stripe's semantics for POST under /v1: the same key with the same request within 24 hours
 * replays the first answer (marked `Idempotent-Replayed: true`); with another request → 409
 * `idempotency_key_reused`. Keys belong to the credential that sent them. Answers of 5xx are not
 * kept, so a retry runs again.
 *
 * Concurrent duplicates: on one isolate the second waits for the first and replays it; a
 * duplicate reaching another isolate finds the `in_progress` record (409
 * `idempotency_key_in_progress`) once KV has carried it there — at once in the same location,
 * within about 60 s elsewhere.
 */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (c.req.method !== "POST" || key === undefined) return next();
    if (!KEY_PATTERN.test(key))
      throw new ApiError(400, "invalid_idempotency_key", "Idempotency-Key must be 1–255 visible ASCII characters.");
    const credential = c.get("credential");
    if (!credential) return next();

    const requestHash = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
    const slot = `${credential.id}:${key}`;
    const running = inFlight.get(slot);
    if (running) {
      if (running.requestHash !== requestHash) throw reused();
      const answer = await running.answer;
      if (!answer) throw inProgress();
      return replay(c, answer);
    }

    // Claimed in the same tick as the check above: no await between them, so a concurrent
    // duplicate on this isolate always finds the claim.
    let settle: (answer: StoredAnswer | null) => void = () => {};
    inFlight.set(slot, { requestHash, answer: new Promise((resolve) => (settle = resolve)) });
    try {
      const kvKey = kvKeys.idempotency(credential.id, await sha256Hex(key));
      const stored = await c.env.KV.get<IdempotencyRecord>(kvKey, "json");
      if (stored) {
        if (stored.request_hash !== requestHash) throw reused();
        if (stored.state !== "done" || !stored.answer) throw inProgress();
        settle(stored.answer);
        return replay(c, stored.answer);
      }
      const options = { expirationTtl: IDEMPOTENCY_TTL_SECONDS };
      await c.env.KV.put(kvKey, JSON.stringify({ request_hash: requestHash, state: "in_progress" }), options);
      await next();
      if (c.res.status >= 500) {
        await c.env.KV.delete(kvKey);
        settle(null);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = c.res.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const answer = { status: c.res.status, headers, body: await c.res.clone().text() };
      await c.env.KV.put(kvKey, JSON.stringify({ request_hash: requestHash, state: "done", answer }), options);
      settle(answer);
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      inFlight.delete(slot);
    }
  };
}
