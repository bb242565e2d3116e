import { eq, or, sql } from "drizzle-orm";
import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { ltiKeys } from "../db/lti-schema";
import { prepared, statement } from "../db/statements";
import type { Database } from "../env";
import { newId } from "../lib/ids";
import { seal, unseal } from "../lib/sealing";
import { isoNow } from "../lib/time";

/**
 * The tool's own keys (docs/lti.md): an RS256 pair of 2048 bits, made on first need, that signs
 * the client assertions of the AGS token requests. Platforms verify them with
 * GET /.well-known/jwks.json, which lists the current key and, for 24 h after a rotation, the
 * previous one. The private key is kept as a JWK sealed (src/lib/sealing.ts) under LTI_SEALING_KEY,
 * or WEBHOOK_SECRET_KEY without it, and bound to its kid: D1 alone reveals no key.
 */

const ALG = "RS256";
const MODULUS_BITS = 2048;
/** How long a rotated-out key stays in the JWKS: platforms may still hold assertions it signed, or a cached key set. */
const PREVIOUS_LISTED_MS = 24 * 3600 * 1000;

type KeyRow = typeof ltiKeys.$inferSelect;

async function newKeyRow(env: Env, nowMs: number): Promise<KeyRow> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { modulusLength: MODULUS_BITS, extractable: true });
  const kid = newId("ltiKey", nowMs);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" };
  const privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: ALG });
  return {
    kid,
    status: "current",
    publicJwk,
    privateSealed: await seal(env, "ltiKeys", kid, privateJwk),
    createdAt: isoNow(nowMs),
    listedUntil: null,
  };
}

const readCurrent = async (db: Database) => (await db.select().from(ltiKeys).where(eq(ltiKeys.status, "current")))[0];

/**
 * The current key, made if there is none. Race-safe: of concurrent first needs each makes a pair,
 * but the partial unique index on status = 'current' lets one insert land; all then read that one.
 */
async function ensureCurrent(env: Env, db: Database): Promise<KeyRow> {
  const found = await readCurrent(db);
  if (found) return found;
  await db
    .insert(ltiKeys)
    .values(await newKeyRow(env, Date.now()))
    .onConflictDoNothing();
  const made = await readCurrent(db);
  if (!made) throw new Error("no current LTI key after inserting one");
  return made;
}

/** Imported private keys by kid: importing costs more than signing. */
const privateKeys = new Map<string, Promise<CryptoKey>>();

/** The key that signs now: its kid and private key. */
export async function signingKey(env: Env, db: Database): Promise<{ kid: string; privateKey: CryptoKey }> {
  const row = await ensureCurrent(env, db);
  let key = privateKeys.get(row.kid);
  if (!key) {
    key = unseal(env, "ltiKeys", row.kid, row.privateSealed).then(
      async (jwk) => (await importJWK(JSON.parse(jwk) as JWK, ALG)) as CryptoKey,
    );
    privateKeys.set(row.kid, key);
    key.catch(() => privateKeys.delete(row.kid));
  }
  return { kid: row.kid, privateKey: await key };
}

/** GET /.well-known/jwks.json: the current public key (made on first need) and a previous one still listed. */
export async function publicKeySet(env: Env, db: Database): Promise<{ keys: Record<string, unknown>[] }> {
  await ensureCurrent(env, db);
  const rows = await listedKeys(db);
  return { keys: rows.map((row) => row.publicJwk) };
}

async function listedKeys(db: Database): Promise<KeyRow[]> {
  const rows = await db
    .select()
    .from(ltiKeys)
    .where(or(eq(ltiKeys.status, "current"), sql`${ltiKeys.status} = 'previous' AND ${ltiKeys.listedUntil} > ${isoNow()}`));
  // The current key first, then by age.
  return rows.sort((a, b) => (a.status === b.status ? b.createdAt.localeCompare(a.createdAt) : a.status === "current" ? -1 : 1));
}

/** The listed keys as the API describes them (no key material). */
async function describeKeys(db: Database) {
  return {
    keys: (await listedKeys(db)).map((row) => ({
      kid: row.kid,
      status: row.status,
      created_at: row.createdAt,
      listed_until: row.listedUntil,
    })),
  };
}

/**
 * A new current key; the current one becomes the previous, listed for 24 h but never signing
 * again, and an older previous one is dropped (two keys at most). One batch: of concurrent
 * rotations each leaves a consistent pair (the later one's previous is the earlier one's new key).
 */
export async function rotateKeys(env: Env, db: Database) {
  const nowMs = Date.now();
  const fresh = await newKeyRow(env, nowMs);
  await db.$client.batch([
    statement(db, sql`DELETE FROM lti_keys WHERE status = 'previous'`),
    statement(
      db,
      sql`UPDATE lti_keys SET status = 'previous', listed_until = ${isoNow(nowMs + PREVIOUS_LISTED_MS)} WHERE status = 'current'`,
    ),
    prepared(db, db.insert(ltiKeys).values(fresh)),
  ]);
  return describeKeys(db);
}
