import type { Config } from "../lib/config";
import { kept, outbound } from "../outbound/request";

export interface AttemptOutcome {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number;
  /** Why it failed, at most 1 KiB: the response's beginning, or what went wrong. */
  error: string | null;
}

/**
 * One POST of a signed event to a receiver, through the one outbound request (src/outbound/):
 * the URL judged again, redirects not followed (a 3xx is a failure), 10 s to answer, at most
 * 64 KiB of the answer read; a receiver must answer 2xx.
 */
export async function postEvent(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: Config["webhooks"]["urlPolicy"],
): Promise<AttemptOutcome> {
  const answer = await outbound(url, { method: "POST", headers, body }, policy, "Webhook URLs");
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const error = ok
    ? null
    : answer.status === null
      ? answer.error
      : kept(`HTTP ${answer.status}${answer.body ? `: ${answer.body}` : ""}`);
  return { ok, responseStatus: answer.status, durationMs: answer.durationMs, error };
}
