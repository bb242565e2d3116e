import { judgeTarget, refusalText, type TargetPolicy } from "../domain/safe-target";
import { boundedRead } from "./bounded-read";

/**
 * Every request the service makes to a URL someone else gave it — a webhook receiver, an LTI
 * platform's JWKS, token and scores URLs, and any later outbound call — goes through outbound(),
 * under the safe-target rules (src/domain/safe-target.ts; docs/security.md): the URL is judged
 * again when used (the policy may have changed since it was saved), redirects are not followed (a
 * 3xx is the answer, never a hop to a target nobody judged), 10 s to answer, at most 64 KiB of the
 * answer read and 1 KiB of it kept for a record.
 */

const TIMEOUT_MS = 10_000;
const MAX_READ_BYTES = 64 * 1024;
const MAX_KEPT_CHARS = 1024;

/** What came back: a status and the answer's beginning, or why there was none. */
export interface Answer {
  /** null: no answer (refused URL, network failure, time-out). */
  status: number | null;
  body: string;
  headers: Headers | null;
  /** Why there was no answer (at most 1 KiB); null when there was one. */
  error: string | null;
  /** The URL was refused by the safe-target rules: trying again will not help. */
  refused?: true;
  /** From the request to the end of the answer's read (0 for a refused URL). */
  durationMs: number;
  /** The body went on past the bytes read (`body` is its beginning): a caller needing all of it refuses it. */
  overflow?: true;
}

/** At most the 1 KiB a record keeps of a text. */
export const kept = (text: string) => (text.length > MAX_KEPT_CHARS ? text.slice(0, MAX_KEPT_CHARS) : text);

/** Why `url` may not be a target, worded for `subject` ("URLs", "Webhook URLs"); undefined when it may. */
export function targetProblem(url: string, policy: TargetPolicy, subject = "URLs"): string | undefined {
  const verdict = judgeTarget(url, policy);
  return verdict.ok ? undefined : refusalText(verdict.refusal, subject);
}

/**
 * One request under the safe-target rules; a refusal worded for `subject`. Never throws.
 * `maxBytes` raises the read for an answer whose whole body is the point (an NRPS page: 1 MiB).
 */
export async function outbound(
  url: string,
  init: RequestInit,
  policy: TargetPolicy,
  subject = "URLs",
  maxBytes = MAX_READ_BYTES,
): Promise<Answer> {
  const verdict = judgeTarget(url, policy);
  if (!verdict.ok)
    return {
      status: null,
      body: "",
      headers: null,
      error: kept(refusalText(verdict.refusal, subject)),
      refused: true,
      durationMs: 0,
    };
  const started = Date.now();
  try {
    const response = await fetch(verdict.url, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    const { text: body, overflow } = await boundedRead(response, maxBytes);
    return {
      status: response.status,
      body,
      headers: response.headers,
      error: null,
      durationMs: Date.now() - started,
      ...(overflow ? { overflow: true as const } : {}),
    };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut ? `No answer within ${TIMEOUT_MS / 1000} s.` : `Request failed: ${String(error)}`;
    return { status: null, body: "", headers: null, error: kept(reason), durationMs: Date.now() - started };
  }
}

/** How an answer counts: ok (2xx), retryable (429, 5xx, no answer) or final (any other). */
export function verdictOf(answer: Answer): "ok" | "retryable" | "final" {
  if (answer.refused) return "final";
  if (answer.status === null) return "retryable";
  if (answer.status >= 200 && answer.status < 300) return "ok";
  return answer.status === 429 || answer.status >= 500 ? "retryable" : "final";
}

/** What to record of a failed answer (≤ 1 KiB): `what` and its status and beginning, or what went wrong. */
export function failureText(answer: Answer, what: string): string {
  if (answer.status === null) return kept(`${what}: ${answer.error ?? "no answer"}`);
  return kept(`${what} answered HTTP ${answer.status}${answer.body ? `: ${answer.body}` : ""}`);
}

/** Retry-After (RFC 9110 §10.2.3) in seconds from now: delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function retryAfterSeconds(answer: Answer, nowMs = Date.now()): number | undefined {
  const value = answer.headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
