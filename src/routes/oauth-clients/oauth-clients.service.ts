import type { z } from "@hono/zod-openapi";
import { asc, eq, gt, sql } from "drizzle-orm";
import { newClient } from "../../auth/oauth-clients";
import { revokeClientTokens } from "../../auth/oauth-revocation";
import { oauthClients } from "../../db/auth-schema";
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

export async function createClient(db: Database, input: { name: string; scopes: string[] }) {
  const { secret, row } = await newClient(input);
  await db.insert(oauthClients).values(row);
  return { ...serializeClient(row), client_secret: secret };
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

export async function getClient(db: Database, id: string) {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
  if (!row) throw notFound("OAuth client");
  return serializeClient(row);
}

/**
 * The old secret stops working at once, and with no grace for it, every token issued under it
 * is revoked too (CONTRACT §6): the new secret and its tokens start afresh.
 */
export async function rotateSecret(db: Database, kv: KVNamespace, id: string) {
  const client = await getClient(db, id);
  const secret = generateClientSecret();
  const now = isoNow();
  const [rotated] = await revokeClientTokens(db, kv, id, [
    sql`UPDATE oauth_clients SET secret_hash = ${await sha256Hex(secret)}, secret_rotated_at = ${now}, updated_at = ${now} WHERE id = ${id}`,
  ]);
  if (rotated?.meta.changes !== 1) throw notFound("OAuth client");
  return { ...client, updated_at: now, secret_rotated_at: now, client_secret: secret };
}

/**
 * Revokes every token the client holds and deletes it (see revokeClientTokens): if revoking
 * fails midway, the client is still there and the request can be retried.
 */
export async function deleteClient(db: Database, kv: KVNamespace, id: string) {
  await getClient(db, id);
  const [deleted] = await revokeClientTokens(db, kv, id, [sql`DELETE FROM oauth_clients WHERE id = ${id}`]);
  if (deleted?.meta.changes !== 1) throw notFound("OAuth client");
}
