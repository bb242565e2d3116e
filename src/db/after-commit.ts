import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../env";

/**
 * What a committed batch wakes, and the one list that carries it to the queue after the commit.
 *
 * A statement that wakes something returns it, under the columns below: an event the outbox wrote
 * (to fan out if an endpoint wants its type), a ledger row the LTI upsert made pending (to send),
 * a job (to run). The list is read from the batch's own results, so it holds exactly what
 * committed: a statement whose condition did not hold returns no row, and a batch that failed
 * returns nothing. Each invocation — a request, a queue batch — keeps one list (WakeUps), and one
 * sender hands it to the queues once the work is done (src/worker/after-commit.ts): a request's
 * after its response, a consumer's after its batch.
 */
export type WakeUp =
  | { kind: "event"; id: string; type: string }
  | { kind: "lti_passback"; id: string }
  | { kind: "job"; id: string };

/** `RETURNING` clauses naming what a statement wakes; each returned row is one wake-up. */
export const RETURNING_WAKE_UP = {
  event: sql.raw("RETURNING id AS wake_event, type AS wake_event_type"),
  ltiPassback: sql.raw("RETURNING id AS wake_lti_passback"),
} satisfies Record<string, SQL>;

/** The wake-ups in a committed batch's results. */
export function wakeUpsOf(results: readonly D1Result[]): WakeUp[] {
  const found: WakeUp[] = [];
  for (const result of results)
    for (const row of (result.results ?? []) as Record<string, unknown>[]) {
      if (typeof row.wake_event === "string" && typeof row.wake_event_type === "string")
        found.push({ kind: "event", id: row.wake_event, type: row.wake_event_type });
      if (typeof row.wake_lti_passback === "string") found.push({ kind: "lti_passback", id: row.wake_lti_passback });
    }
  return found;
}

/** One invocation's wake-ups: each batch it commits adds what it woke; the invocation sends them once, after. */
export class WakeUps {
  private list: WakeUp[] = [];

  /** Adds wake-ups outright: a job its insert made, ledger rows a statement of its own made pending. */
  add(...wakeUps: WakeUp[]): void {
    this.list.push(...wakeUps);
  }

  /** Adds what a committed batch woke. */
  committed(results: readonly D1Result[]): void {
    this.list.push(...wakeUpsOf(results));
  }

  /** Everything added since the last take; the list is then empty. */
  take(): WakeUp[] {
    const taken = this.list;
    this.list = [];
    return taken;
  }
}

/** Runs one atomic D1 batch and adds what it woke to `wakeUps`; answers the batch's results. */
export async function commit<T = Record<string, unknown>>(
  db: Database,
  wakeUps: WakeUps,
  statements: D1PreparedStatement[],
): Promise<D1Result<T>[]> {
  const results = await db.$client.batch<T>(statements);
  wakeUps.committed(results);
  return results;
}
