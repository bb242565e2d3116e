import type { WakeUp } from "../db/after-commit";
import type { Database } from "../env";
import { wantedEvents } from "../events/subscribers";
import { sendOrLeave } from "../queue/send";

/**
 * The one place wake-ups reach the queues (src/db/after-commit.ts), after the work that committed
 * them: a request's after its response (src/app.ts hands this to waitUntil), a consumer batch's
 * after its last message (queue.ts). Events go only where an endpoint subscribes to their type
 * (events/subscribers.ts); ledger rows and jobs always. A send that fails is logged: the events'
 * sweep, LTI's and the jobs' (cron, every minute) hand over what it lost.
 */
export async function sendWakeUps(env: Env, db: Database, wakeUps: readonly WakeUp[]): Promise<void> {
  if (wakeUps.length === 0) return;
  // The next task: by then a request's response is on its way (waitUntil work never delays it).
  await new Promise((resolve) => setTimeout(resolve, 0));
  const of = <K extends WakeUp["kind"]>(kind: K) => wakeUps.filter((w): w is Extract<WakeUp, { kind: K }> => w.kind === kind);
  // A batch that keeps one ledger row twice (two attempts of one user regraded) wakes it once.
  const ids = (kind: "lti_passback" | "job") => [...new Set(of(kind).map((w) => w.id))];
  const events = await wantedEvents(db, of("event"));
  await Promise.all([
    sendOrLeave(
      env,
      events.map((e) => ({ kind: "event", event_id: e.id })),
      "events not queued; the sweep will",
    ),
    sendOrLeave(
      env,
      ids("lti_passback").map((id) => ({ kind: "lti_passback", passback_id: id })),
      "passbacks not queued; the cron will",
    ),
    sendOrLeave(
      env,
      ids("job").map((id) => ({ kind: "job", job_id: id })),
      "job not queued; the cron will",
    ),
  ]);
}
