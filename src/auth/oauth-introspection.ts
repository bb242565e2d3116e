import { REFRESH_TOKEN_PREFIX } from "../domain/credential-format";
import type { Database } from "../env";
import { sha256Hex } from "../lib/crypto";
import { unixSeconds as nowSeconds } from "../lib/time";
import { readRefreshToken, usable } from "./oauth-refresh";
import { readAccessToken } from "./oauth-tokens";

export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  /**
   * RFC 7662 §2.2: the token type of RFC 6749 §5.1 (the access token's "Bearer"), not the kind of
   * token; a refresh token has no such type, so its answer leaves the field out.
   */
  token_type?: "Bearer";
  exp?: number;
  iat?: number;
}

/** RFC 7662: only the client a token was issued to learns anything about it. */
export async function introspect(db: Database, kv: KVNamespace, clientId: string, token: string): Promise<Introspection> {
  const access = await readAccessToken(kv, token);
  if (access) {
    return access.client_id === clientId
      ? {
          active: true,
          scope: access.scopes.join(" "),
          client_id: access.client_id,
          token_type: "Bearer",
          exp: access.exp,
          iat: access.iat,
        }
      : { active: false };
  }
  if (!token.startsWith(REFRESH_TOKEN_PREFIX)) return { active: false };
  const hash = await sha256Hex(token);
  const row = await readRefreshToken(db, hash);
  const now = nowSeconds();
  if (!row || row.tokenExpiresAt <= now || row.clientId !== clientId || row.revokedAt !== null) return { active: false };
  const state = usable(row, hash, now);
  if (!state) return { active: false };
  // Only the current token's issue time is kept (the grace runs from it).
  const iat = state === "current" ? { iat: row.currentIssuedAt } : {};
  return { active: true, scope: row.scopes.join(" "), client_id: row.clientId, exp: row.tokenExpiresAt, ...iat };
}
