import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Credentials: API keys and their usage, OAuth clients and their grants. Timestamps as in schema.ts.

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    /** The first characters of the key, safe to show, to help people tell keys apart. */
    prefix: text("prefix").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    /** The key that replaced this one by rotation. */
    rotatedTo: text("rotated_to"),
    lastUsedAt: text("last_used_at"),
    totalRequests: integer("total_requests").notNull().default(0),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash)],
);

export const apiKeyUsage = sqliteTable(
  "api_key_usage",
  {
    keyId: text("key_id").notNull(),
    /** UTC day, YYYY-MM-DD. */
    date: text("date").notNull(),
    requests: integer("requests").notNull().default(0),
    errors: integer("errors").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.date] })],
);

export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** SHA-256 of the client secret, hex. */
  secretHash: text("secret_hash").notNull(),
  scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  secretRotatedAt: text("secret_rotated_at"),
});

/**
 * One row per OAuth grant (token family). Its state changes only by conditional UPDATEs on
 * `generation`, so concurrent refreshes and revocations serialise in D1.
 */
export const oauthTokenFamilies = sqliteTable(
  "oauth_token_families",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id").notNull(),
    /** The scopes of the original grant: the most a refresh may ask for. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    /** +1 per rotation of the refresh token. */
    generation: integer("generation").notNull().default(0),
    /** SHA-256 of the current refresh token and of the one it replaced. */
    currentHash: text("current_hash").notNull(),
    previousHash: text("previous_hash"),
    /** Unix seconds when the current refresh token was issued (the lost-response grace runs from here). */
    currentIssuedAt: integer("current_issued_at").notNull(),
    /** Unix seconds when the current refresh token expires. */
    expiresAt: integer("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("oauth_token_families_client_idx").on(t.clientId)],
);

/** Every refresh token a family issued (by hash), so that an old one coming back is recognised as reuse. */
export const oauthRefreshTokens = sqliteTable(
  "oauth_refresh_tokens",
  {
    hash: text("hash").primaryKey(),
    familyId: text("family_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oauth_refresh_tokens_family_idx").on(t.familyId)],
);

/** Every access token a family issued, recorded before it is returned, so that revoking finds them all. */
export const oauthAccessTokens = sqliteTable(
  "oauth_access_tokens",
  {
    hash: text("hash").primaryKey(),
    familyId: text("family_id").notNull(),
    clientId: text("client_id").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oauth_access_tokens_family_idx").on(t.familyId), index("oauth_access_tokens_client_idx").on(t.clientId)],
);
