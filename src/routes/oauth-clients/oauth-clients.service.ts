import type { z } from "@hono/zod-openapi";
import { asc, eq, gt, sql } from "drizzle-orm";
import { newClient } from "../../auth/oauth-clients";
import { revokeClientTokens, type TokenStores } from "../../auth/oauth-revocation";
import { commit, type WakeUps } from "../../db/after-commit";
import { oauthClients } from "../../db/auth-schema";
import { concurrentUpdate, WRITE_ATTEMPTS } from "../../db/optimistic";
import { eventStatement } from "../../db/outbox";
import { prepared, statement } from "../../db/statements";
import { generateClientSecret } from "../../domain/credential-format";
import type { Database } from "../../env";
import { sha256Hex } from "../../lib/crypto";
import { notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import type { OAuthClient } from "./oauth-clients.schemas";

type Row = typeof oauthClients.$inferSelect;

function serializeClient(row: Row): z.infer<typeof OAuthClient> {
  return {
    id: row.id,
    client_id: row.id,
    name: row.name,
    scopes: row.scopes,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    secret_rotated_at: row.secretRotatedAt,
  };
}

/** The client and its oauth_client.created event (which never carries the secret or its hash), in one batch. */
export async function createClient(db: Database, wakeUps: WakeUps, input: { name: string; scopes: string[] }) {
  const { secret, row } = await newClient(input);
  const created = serializeClient(row);
  await commit(db, wakeUps, [
    prepared(db, db.insert(oauthClients).values(row)),
    eventStatement(db, { type: "oauth_client.created", object: created }),
  ]);
  return { ...created, client_secret: secret };
}

export async function listClients(db: Database, after: string | undefined, limit: number) {
  const rows = await db
    .select()
    .from(oauthClients)
    .where(after === undefined ? undefined : gt(oauthClients.id, after))
    .orderBy(asc(oauthClients.id))
    .limit(limit + 1);
  return rows.map(serializeClient);
}

async function getClientRow(db: Database, id: string) {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
  if (!row) throw notFound("OAuth client");
  return row;
}

export async function getClient(db: Database, id: string) {
  return serializeClient(await getClientRow(db, id));
}

/**
 * The old secret stops working at once, and with no grace for it, every token issued under it
 * is revoked too (docs/security.md): the new secret and its tokens start afresh. The secret is
 * replaced, with the oauth_client.secret_rotated event, only while it is the one read (a secret
 * hash never repeats), so the event's previous_attributes are what the rotation replaced.
 */
export async function rotateSecret(db: Database, wakeUps: WakeUps, stores: TokenStores, id: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getClientRow(db, id);
    const secret = generateClientSecret();
    const now = isoNow();
    const rotated = serializeClient({ ...read, updatedAt: now, secretRotatedAt: now });
    const changed = await revokeClientTokens(db, stores, id, [
      statement(
        db,
        sql`UPDATE oauth_clients SET secret_hash = ${await sha256Hex(secret)}, secret_rotated_at = ${now}, updated_at = ${now}
            WHERE id = ${id} AND secret_hash = ${read.secretHash}`,
      ),
      eventStatement(
        db,
        { type: "oauth_client.secret_rotated", object: rotated, previous: { secret_rotated_at: read.secretRotatedAt } },
        "after-change",
      ),
    ]);
    wakeUps.committed(changed);
    if (changed[0]?.meta.changes === 1) return { ...rotated, client_secret: secret };
  }
  throw concurrentUpdate("The client");
}

/**
 * Revokes every token the client holds and deletes it (see revokeClientTokens): if revoking
 * fails midway, the client is still there and the request can be retried. The
 * oauth_client.deleted event carries the client as it was.
 */
export async function deleteClient(db: Database, wakeUps: WakeUps, stores: TokenStores, id: string) {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const read = await getClientRow(db, id);
    const changed = await revokeClientTokens(db, stores, id, [
      statement(db, sql`DELETE FROM oauth_clients WHERE id = ${id} AND secret_hash = ${read.secretHash}`),
      eventStatement(db, { type: "oauth_client.deleted", object: serializeClient(read) }, "after-change"),
    ]);
    wakeUps.committed(changed);
    if (changed[0]?.meta.changes === 1) return;
  }
  throw concurrentUpdate("The client");
}
