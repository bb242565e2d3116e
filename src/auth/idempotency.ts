import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import { BOOKMARK_HEADER, sessionBookmark } from "../db/session";
import type { AppEnv, Credential } from "../env";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { IDEMPOTENCY_TTL_SECONDS, kvKeys, kvTtl } from "../lib/kv-keys";
import { logUnexpectedError } from "../lib/log";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The response headers a replay repeats. */
const REPLAYED_HEADERS = ["content-type", "location"];

interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A kept answer, sealed: it may hold a key or secret shown once (POST /v1/api-keys …). */
interface IdempotencyRecord {
  request_hash: string;
  iv: string;
  sealed: string;
}

/**
 * Answers are kept encrypted (AES-GCM) under a key derived from the Idempotency-Key itself,
 * which KV never holds (the record is named by its SHA-256): what KV stores cannot be read
 * without the header only the client has. Keys and secrets thus never sit in KV in the clear.
 */
async function answerKey(owner: string, idempotencyKey: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", encoder.encode(`quiz-idempotency:${owner}:${idempotencyKey}`));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

const encoder = new TextEncoder();
const toBase64 = (bytes: Uint8Array) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

async function seal(answer: StoredAnswer, requestHash: string, owner: string, key: string): Promise<IdempotencyRecord> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await answerKey(owner, key),
    encoder.encode(JSON.stringify(answer)),
  );
  return { request_hash: requestHash, iv: toBase64(iv), sealed: toBase64(new Uint8Array(sealed)) };
}

async function open(record: IdempotencyRecord, owner: string, key: string): Promise<StoredAnswer> {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(record.iv) },
    await answerKey(owner, key),
    fromBase64(record.sealed),
  );
  return JSON.parse(new TextDecoder().decode(plain)) as StoredAnswer;
}

/**
 * Whom a kept answer belongs to: the API key, or the OAuth grant with exactly these scopes. A
 * client's other grants, or a narrower token of the same grant, never see each other's answers.
 */
async function replayOwner(credential: Credential): Promise<string> {
  if (credential.type !== "access_token") return credential.id;
  const scopes = [...credential.scopes].sort().join(" ");
  return `${credential.id}.${await sha256Hex(`${credential.grant_id ?? ""}\n${scopes}`)}`;
}

/** A Content-Type's type/subtype, lower-cased and without parameters; "" when there is none. */
const mediaTypeOf = (header: string | undefined) => ((header ?? "").split(";")[0] ?? "").trim().toLowerCase();

/** SHA-256 (lower-case hex) of a request's head (request line and media type) and its body's bytes. */
async function fingerprint(head: string, body: ArrayBuffer): Promise<string> {
  const start = encoder.encode(head);
  const all = new Uint8Array(start.length + body.byteLength);
  all.set(start);
  all.set(new Uint8Array(body), start.length);
  const digest = await crypto.subtle.digest("SHA-256", all);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Requests being executed by this isolate, so that a concurrent duplicate waits for the answer. */
const inFlight = new Map<string, { requestHash: string; answer: Promise<StoredAnswer | null> }>();

const reused = () => new ApiError("idempotency_key_reused", "This Idempotency-Key was used with a different request.");
const inProgress = () =>
  new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still being processed; retry shortly.");

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
 * `idempotency_key_reused`. Keys belong to the credential that sent them (see replayOwner), and
 * this middleware runs after the route's scope check (see `scoped`), so a replay is served only
 * to a credential that may make the request now. Answers of 5xx are not
 * kept, so a retry runs again (after the in-progress marker expires, within a minute).
 *
 * Concurrent duplicates: on one isolate the second waits for the first and replays it; a
 * duplicate reaching another isolate finds the `in_progress` record (409
 * `idempotency_key_in_progress`) once KV has carried it there — at once in the same location,
 * within about 60 s elsewhere.
 */
export function idempotent(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (c.req.method !== "POST" || key === undefined) return next();
    if (!KEY_PATTERN.test(key))
      throw new ApiError("invalid_idempotency_key", "Idempotency-Key must be 1–255 visible ASCII characters.");
    const credential = c.get("credential");
    if (!credential) return next();

    // The fingerprint covers the method, the path with its query, the body's media type and the
    // body. The media type is how the route reads the bytes (an import takes the same bytes as XML
    // or as plain text), so the same bytes under another type are another request. It is compared
    // as the routes read it: type/subtype, lower-cased, without parameters. The body is read as
    // bytes: an upload (POST /v1/imports) is no text, and a route reading it after a text read
    // would get it back re-encoded.
    const url = new URL(c.req.url);
    const head = `${c.req.method} ${url.pathname}${url.search}\n${mediaTypeOf(c.req.header("content-type"))}\n`;
    const requestHash = await fingerprint(head, await c.req.arrayBuffer());
    const owner = await replayOwner(credential);
    const slot = `${owner}:${key}`;
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
      const keyHash = await sha256Hex(key);
      const doneKey = kvKeys.idempotency(owner, keyHash);
      const lockKey = kvKeys.idempotencyLock(owner, keyHash);
      const stored = await c.env.KV.get<IdempotencyRecord>(doneKey, "json");
      if (stored) {
        if (stored.request_hash !== requestHash) throw reused();
        const answer = await open(stored, owner, key);
        settle(answer);
        return replay(c, answer);
      }
      const lock = await c.env.KV.get<{ request_hash: string }>(lockKey, "json");
      if (lock) throw lock.request_hash === requestHash ? inProgress() : reused();
      // Each key is written once: the marker expires by itself (a crashed request frees the key
      // within a minute), and the answer goes to its own key.
      await c.env.KV.put(lockKey, JSON.stringify({ request_hash: requestHash }), { expirationTtl: kvTtl(60) });
      await next();
      if (c.res.status >= 500) {
        settle(null);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = c.res.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      // The replay reads nothing from D1: it repeats the bookmark of the write it replays.
      const bookmark = sessionBookmark(c.var.db);
      if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
      const answer = { status: c.res.status, headers, body: await c.res.clone().text() };
      settle(answer);
      try {
        const record = await seal(answer, requestHash, owner, key);
        await c.env.KV.put(doneKey, JSON.stringify(record), { expirationTtl: IDEMPOTENCY_TTL_SECONDS });
      } catch (error) {
        // The request is done and answered; only its replay is lost.
        logUnexpectedError(c, error);
      }
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      inFlight.delete(slot);
    }
  };
}
