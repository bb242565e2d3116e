import { judgeWebhookUrl } from "../domain/webhook-url";
import { boundedText } from "../lib/bounded-read";
import type { Config } from "../lib/config";

/**
 * Every request the service makes to a platform (its JWKS, its token endpoint, its AGS scores)
 * obeys the safe-target rules of webhooks (docs/security.md, docs/webhooks.md): the URL is judged again when used,
 * redirects are not followed, 10 s to answer, at most 64 KiB of an answer read, 1 KiB of it kept.
 */

type UrlPolicy = Config["webhooks"]["urlPolicy"];

const TIMEOUT_MS = 10_000;
const MAX_READ_BYTES = 64 * 1024;
const MAX_KEPT_CHARS = 1024;

/** What came back: a status and the answer's beginning, or why there was none. */
export interface Answer {
  /** null: no answer (refused URL, network failure, time-out). */
  status: number | null;
  body: string;
  headers: Headers | null;
  /** Why there was no answer; null when there was one. */
  error: string | null;
  /** The URL was refused by the safe-target rules: trying again will not help. */
  refused?: true;
}

/** The reason a URL is refused, worded for any outbound URL (the rules are the webhooks'). */
export function urlProblem(url: string, policy: UrlPolicy): string | undefined {
  const verdict = judgeWebhookUrl(url, policy);
  return verdict.ok ? undefined : verdict.reason.replace(/^Webhook URLs/, "URLs");
}

const kept = (text: string) => (text.length > MAX_KEPT_CHARS ? text.slice(0, MAX_KEPT_CHARS) : text);

/** One request to a platform under the safe-target rules. Never throws. */
export async function outbound(url: string, init: RequestInit, policy: UrlPolicy): Promise<Answer> {
  const verdict = judgeWebhookUrl(url, policy);
  if (!verdict.ok) return { status: null, body: "", headers: null, error: urlProblem(url, policy) ?? "", refused: true };
  try {
    const response = await fetch(verdict.url, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { status: response.status, body: await boundedText(response, MAX_READ_BYTES), headers: response.headers, error: null };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut ? `No answer within ${TIMEOUT_MS / 1000} s.` : `Request failed: ${String(error)}`;
    return { status: null, body: "", headers: null, error: kept(reason) };
  }
}

/** How an answer counts: ok (2xx), retryable (429, 5xx, no answer) or final (any other). */
export function verdictOf(answer: Answer): "ok" | "retryable" | "final" {
  if (answer.refused) return "final";
  if (answer.status === null) return "retryable";
  if (answer.status >= 200 && answer.status < 300) return "ok";
  return answer.status === 429 || answer.status >= 500 ? "retryable" : "final";
}

/** What to record of a failed answer (≤ 1 KiB): its status and beginning, or what went wrong. */
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
