import { eq } from "drizzle-orm";
import { oauthClients } from "../../db/auth-schema";
import type { Database } from "../../env";
import { sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { invalidClient, invalidRequest } from "../../lib/errors";
import { isId } from "../../lib/ids";
import type { OAuthParams } from "./oauth-params";

export interface AuthenticatedClient {
  id: string;
  scopes: string[];
  /** The hash of the secret that authenticated: tokens are issued only while it is still the client's. */
  secretHash: string;
}

interface PresentedCredentials {
  id: string;
  secret: string;
}

/**
 * Compared against when no client row was found, so that an unknown client id costs the same
 * hashing and comparison as a wrong secret. No secret hashes to it.
 */
const NO_CLIENT_HASH = "0".repeat(64);

/**
 * RFC 6749 §2.3.1 client authentication: HTTP Basic or client_id + client_secret in the body,
 * never both. The secret is checked by comparing SHA-256 hashes in constant time; the plaintext
 * exists only in this request.
 */
export async function authenticateClient(
  db: Database,
  authorization: string | undefined,
  params: OAuthParams,
): Promise<AuthenticatedClient> {
  const presented = presentedCredentials(authorization, params);
  // A malformed id cannot exist: refused without a query.
  const row = isId("oauthClient", presented.id)
    ? await db
        .select({ id: oauthClients.id, secretHash: oauthClients.secretHash, scopes: oauthClients.scopes })
        .from(oauthClients)
        .where(eq(oauthClients.id, presented.id))
        .get()
    : undefined;
  const matches = timingSafeEqual(await sha256Hex(presented.secret), row?.secretHash ?? NO_CLIENT_HASH);
  if (!row || !matches) throw invalidClient();
  return { id: row.id, scopes: row.scopes, secretHash: row.secretHash };
}

function presentedCredentials(authorization: string | undefined, params: OAuthParams): PresentedCredentials {
  const bodyId = params.get("client_id");
  const bodySecret = params.get("client_secret");
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (bodySecret !== undefined)
      throw invalidRequest("Authenticate the client one way only: HTTP Basic or client_secret in the body, not both.");
    // RFC 6749 lets a client name itself in the body too; it must then be the same client.
    if (bodyId !== undefined && bodyId !== basic.id)
      throw invalidRequest("The client_id parameter names another client than the Authorization header.");
    return basic;
  }
  if (bodyId === undefined || bodySecret === undefined)
    throw invalidClient("Authenticate the client with HTTP Basic or with client_id and client_secret in the body.");
  return { id: bodyId, secret: bodySecret };
}

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/**
 * `Basic base64(urlencode(client_id) ":" urlencode(client_secret))`: RFC 6749 §2.3.1 has both
 * parts form-url-encoded before they are joined, so each is decoded after the split at the
 * first colon.
 */
function parseBasic(header: string): PresentedCredentials {
  const encoded = BASIC.exec(header)?.[1];
  if (!encoded) throw invalidClient("The Authorization header must be Basic with base64 client credentials.");
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(encoded), (ch) => ch.charCodeAt(0)),
    );
  } catch {
    throw invalidClient("The Basic credentials are not valid base64 of UTF-8 text.");
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw invalidClient("The Basic credentials must be client_id:client_secret.");
  try {
    return { id: formUrlDecode(decoded.slice(0, colon)), secret: formUrlDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient("The Basic credentials are not correctly url-encoded.");
  }
}

/** application/x-www-form-urlencoded decoding: `+` is a space; throws on a broken %-escape. */
const formUrlDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
