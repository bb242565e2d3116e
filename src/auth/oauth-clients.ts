import type { oauthClients } from "../db/auth-schema";
import { generateClientSecret } from "../domain/credential-format";
import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";

type Row = typeof oauthClients.$inferSelect;

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
