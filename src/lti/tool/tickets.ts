import { sql } from "drizzle-orm";
import { ltiTickets } from "../../db/lti-tool-schema";
import type { Database } from "../../env";
import { randomBase62, sha256Hex } from "../../lib/crypto";
import { isoNow } from "../../lib/time";

/**
 * Single-use tickets (lti_tickets): a random value handed to the browser, kept only as its
 * SHA-256 hash, that names a verified launch's next step. Spending one is one conditional UPDATE
 * (unused, unexpired, of its kind), so of two requests with one ticket exactly one wins.
 */

type TicketKind = (typeof ltiTickets.$inferSelect)["kind"];
const TICKET_LENGTH = 32;

export async function issueTicket(
  db: Database,
  kind: TicketKind,
  platformId: string,
  payload: Record<string, unknown>,
  ttlSeconds: number,
  nowMs = Date.now(),
): Promise<string> {
  const ticket = randomBase62(TICKET_LENGTH);
  await db.insert(ltiTickets).values({
    ticketHash: await sha256Hex(ticket),
    kind,
    platformId,
    payload,
    expiresAt: isoNow(nowMs + ttlSeconds * 1000),
    usedAt: null,
  });
  return ticket;
}

export interface Ticket {
  platformId: string;
  payload: Record<string, unknown>;
}

const wellFormed = (ticket: string) => ticket.length === TICKET_LENGTH && /^[0-9A-Za-z]+$/.test(ticket);

/** The ticket, unused and unexpired, without spending it (the picker's pages); undefined otherwise. */
export async function readTicket(
  db: Database,
  kind: TicketKind,
  ticket: string,
  nowMs = Date.now(),
): Promise<Ticket | undefined> {
  if (!wellFormed(ticket)) return undefined;
  const [row] = await db.all<{ platform_id: string; payload: string }>(sql`
    SELECT platform_id, payload FROM lti_tickets
    WHERE ticket_hash = ${await sha256Hex(ticket)} AND kind = ${kind} AND used_at IS NULL AND expires_at > ${isoNow(nowMs)}`);
  return row && { platformId: row.platform_id, payload: JSON.parse(row.payload) as Record<string, unknown> };
}

/** Spends the ticket: its content to the one caller that wins it; undefined when unknown, used or expired. */
export async function spendTicket(
  db: Database,
  kind: TicketKind,
  ticket: string,
  nowMs = Date.now(),
): Promise<Ticket | undefined> {
  if (!wellFormed(ticket)) return undefined;
  const now = isoNow(nowMs);
  const [row] = await db.all<{ platform_id: string; payload: string }>(sql`
    UPDATE lti_tickets SET used_at = ${now}
    WHERE ticket_hash = ${await sha256Hex(ticket)} AND kind = ${kind} AND used_at IS NULL AND expires_at > ${now}
    RETURNING platform_id, payload`);
  return row && { platformId: row.platform_id, payload: JSON.parse(row.payload) as Record<string, unknown> };
}
