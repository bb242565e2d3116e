import type { z } from "@hono/zod-openapi";
import { asc, eq, gt } from "drizzle-orm";
import { revokeClientTokens } from "../../auth/oauth-tokens";
import { oauthClients } from "../../db/schema";
import { generateClientSecret } from "../../domain/credential-format";
import type { Database } from "../../env";
import { sha256Hex } from "../../lib/crypto";
import { notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import type { OAuthClient } from "./oauth-clients.schemas";

type Row = typeof oauthClients.$inferSelect;

export function serializeClient(row: Row): z.infer<typeof OAuthClient> {
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

/** A new client row and its secret, which exists only in the caller's hands from here on. */
export async function newClient(input: { name: string; scopes: string[] }) {
  const secret = generateClientSecret();
  const now = isoNow();
  const row: Row = {
    id: newId("oauthClient"),
    name: input.name,
    secretHash: await sha256Hex(secret),
    scopes: input.scopes,
    createdAt: now,
    updatedAt: now,
    secretRotatedAt: null,
  };
  return { secret, row };
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

/** The old secret stops working at once; tokens already issued stay valid until they expire. */
export async function rotateSecret(db: Database, id: string) {
  const secret = generateClientSecret();
  const now = isoNow();
  const [row] = await db
    .update(oauthClients)
    .set({ secretHash: await sha256Hex(secret), secretRotatedAt: now, updatedAt: now })
    .where(eq(oauthClients.id, id))
    .returning();
  if (!row) throw notFound("OAuth client");
  return { ...serializeClient(row), client_secret: secret };
}

/** Deletes the client and revokes every token it holds. */
/**
 * Revokes every token the client holds, then deletes it: if revoking fails midway, the client
 * is still there and the request can be retried.
 */
export async function deleteClient(db: Database, kv: KVNamespace, id: string) {
  await getClient(db, id);
  await revokeClientTokens(kv, id);
  const [row] = await db.delete(oauthClients).where(eq(oauthClients.id, id)).returning({ id: oauthClients.id });
  if (!row) throw notFound("OAuth client");
}
