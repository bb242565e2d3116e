import { type SQL, sql } from "drizzle-orm";
import type { EventType } from "../domain/events";
import type { Database } from "../env";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { RETURNING_WAKE_UP } from "./after-commit";
import { statement } from "./statements";

/** An event as the API shows it (GET /v1/events/{id}) and as webhooks deliver it. */
export interface ApiEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: { object: Record<string, unknown> };
  previous_attributes?: Record<string, unknown>;
}

export interface EventInput {
  type: EventType;
  object: Record<string, unknown>;
  /** Old values of the changed fields: every *.updated and submission.regraded event has them. */
  previous?: Record<string, unknown>;
  /** The user whose name and e-mail the object holds (user.* events): their deletion redacts it. */
  userId?: string;
}

/**
 * When the event is written: always (the batch's fate is the change's), or only if the
 * statement just before it in the batch changed a row (`changes()` is per connection and a D1
 * batch runs its statements in order on one connection, in one transaction), or where a
 * condition of the caller's holds.
 */
export type EventCondition = "always" | "after-change" | SQL;

/**
 * The outbox: a statement that writes the event, to be placed in the same D1 batch as the change
 * it describes, so that the change and its event commit together or not at all. It returns the
 * event it wrote as a wake-up (after-commit.ts): commit() finds it in the batch's results, and an
 * event whose batch failed or whose condition did not hold returns nothing.
 */
export function eventStatement(db: Database, input: EventInput, when: EventCondition = "always"): D1PreparedStatement {
  const now = Date.now();
  const id = newId("event", now);
  const previous = input.previous === undefined ? null : JSON.stringify(input.previous);
  const condition = when === "always" ? sql`1` : when === "after-change" ? sql`changes() = 1` : when;
  return statement(
    db,
    sql`INSERT INTO events (id, type, created_at, data, previous_attributes, user_id)
        SELECT ${id}, ${input.type}, ${isoNow(now)}, ${JSON.stringify({ object: input.object })}, ${previous}, ${input.userId ?? null}
        WHERE ${condition}
        ${RETURNING_WAKE_UP.event}`,
  );
}

/** A stored event row as the API shows it. */
export function serializeEvent(row: {
  id: string;
  type: string;
  createdAt: string;
  data: { object: Record<string, unknown> };
  previousAttributes: Record<string, unknown> | null;
}): ApiEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    created_at: row.createdAt,
    data: row.data,
    ...(row.previousAttributes === null ? {} : { previous_attributes: row.previousAttributes }),
  };
}
