import { bindingOf } from "../db/session";
import { subscribes } from "../domain/events";
import type { Database } from "../env";

/**
 * What this isolate knows of the enabled endpoints' subscriptions, so that a request hands the
 * queue only the events some endpoint may want: with no endpoint subscribed to a type, recording
 * its events costs the outbox row and nothing more. The view is read from D1 at most every
 * VIEW_TTL_MS per isolate (after the response, never before it) and forgotten at once when this
 * isolate changes an endpoint. An event a stale view held back is not lost: it stays undispatched,
 * and the sweep (cron) hands it to the queue if an endpoint wants it, or settles it if none does.
 */

/** How long an isolate trusts the subscriptions it last read. */
const VIEW_TTL_MS = 10_000;

interface View {
  /** Each enabled endpoint's subscribed types. */
  subscriptions: string[][];
  readAtMs: number;
}

/** Keyed by the D1 binding: one view per database (and per test storage). */
const views = new WeakMap<object, View>();

/** Forgets the view of this database: an endpoint was created, changed or deleted. */
export function forgetSubscriptions(db: Database): void {
  views.delete(bindingOf(db));
}

async function currentView(db: Database, nowMs: number): Promise<View> {
  const known = views.get(bindingOf(db));
  if (known && nowMs - known.readAtMs < VIEW_TTL_MS) return known;
  const rows = await db.$client.prepare("SELECT events FROM webhook_endpoints WHERE enabled = 1").all<{ events: string }>();
  const view = { subscriptions: rows.results.map((row) => JSON.parse(row.events) as string[]), readAtMs: nowMs };
  views.set(bindingOf(db), view);
  return view;
}

/**
 * Of events just committed, those some enabled endpoint subscribes to by this isolate's view (read
 * after the response, never before it): the ones worth a queue message. Without a view (D1 did not
 * answer), every one: the consumer finds who wants it.
 */
export async function wantedEvents<E extends { type: string }>(db: Database, committed: readonly E[]): Promise<E[]> {
  if (committed.length === 0) return [];
  const view = await currentView(db, Date.now()).catch(() => undefined);
  return view ? committed.filter((event) => view.subscriptions.some((types) => subscribes(types, event.type))) : [...committed];
}
