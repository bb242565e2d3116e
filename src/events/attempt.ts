import { judgeWebhookUrl } from "../domain/webhook-url";
import { boundedText } from "../lib/bounded-read";
import type { Config } from "../lib/config";

/** A receiver has this long to answer with a 2xx. */
const TIMEOUT_MS = 10_000;
/** At most this much of a response is read … */
const MAX_READ_BYTES = 64 * 1024;
/** … and this much of it kept in the delivery record. */
const MAX_KEPT_CHARS = 1024;

export interface AttemptOutcome {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  /** Why it failed, at most 1 KiB: the response's beginning, or what went wrong. */
  error: string | null;
}

const kept = (text: string) => (text.length > MAX_KEPT_CHARS ? text.slice(0, MAX_KEPT_CHARS) : text);

/**
 * One POST of a signed event to a receiver: the URL judged again (the policy may have changed
 * since the endpoint was saved), redirects not followed (a 3xx is a failure), 10 s to answer,
 * at most 64 KiB of the answer read.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: Config["webhooks"]["urlPolicy"],
): Promise<AttemptOutcome> {
  const verdict = judgeWebhookUrl(url, policy);
  if (!verdict.ok) return { ok: false, responseStatus: null, durationMs: 0, error: kept(verdict.reason) };
  const started = Date.now();
  try {
    const response = await fetch(verdict.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await boundedText(response, MAX_READ_BYTES);
    const ok = response.status >= 200 && response.status < 300;
    const error = ok ? null : kept(`HTTP ${response.status}${text ? `: ${text}` : ""}`);
    return { ok, responseStatus: response.status, durationMs: Date.now() - started, error };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut ? `No answer within ${TIMEOUT_MS / 1000} s.` : `Request failed: ${String(error)}`;
    return { ok: false, responseStatus: null, durationMs: Date.now() - started, error: kept(reason) };
  }
}
