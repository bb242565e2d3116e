import { sendOrLeave } from "../queue/send";

/**
 * Wakes ledger rows up after `delaySeconds`: one lti_passback message each (ids only). A failure
 * is logged, not thrown: the rows stay pending, and the cron hands them to the queue again (sweep.ts).
 */
export async function wakePassbacks(env: Env, ids: readonly string[], delaySeconds = 0): Promise<void> {
  await sendOrLeave(
    env,
    ids.map((id) => ({ kind: "lti_passback" as const, passback_id: id })),
    "passbacks not queued; the cron will",
    { delaySeconds },
  );
}
