import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The LTI tool's own pages (docs/lti.md): OIDC login states and the single-use tickets that carry
// a verified launch into a new window or the deep-linking picker. Secrets are kept only as SHA-256
// hashes; timestamps as in schema.ts.

/**
 * A login begun at /lti/login: the `state` sent to the platform (its hash is the key), the
 * `nonce` the id_token must carry (hashed), and the hash of the cookie value that binds the state
 * to the browser. Used once: `claim` is set by the one launch that wins it, and the row is never
 * usable again; the cron deletes it after `expires_at`.
 */
export const ltiLoginStates = sqliteTable(
  "lti_login_states",
  {
    stateHash: text("state_hash").primaryKey(),
    platformId: text("platform_id").notNull(),
    nonceHash: text("nonce_hash").notNull(),
    bindingHash: text("binding_hash").notNull(),
    targetLinkUri: text("target_link_uri").notNull(),
    expiresAt: text("expires_at").notNull(),
    /** Null until a launch uses the state: the random token of the launch that claimed it. */
    claim: text("claim"),
  },
  (t) => [index("lti_login_states_expiry_idx").on(t.expiresAt)],
);

/**
 * A verified launch waiting for its next step, under a random ticket (hashed): `continue` — a
 * launch posted without the state's cookie, completed in the new window the launch page opens
 * (single use); `picker` — a deep-linking request, whose picker pages read it until one answer
 * spends it. `payload` is what the step needs (docs/lti.md).
 */
export const ltiTickets = sqliteTable(
  "lti_tickets",
  {
    ticketHash: text("ticket_hash").primaryKey(),
    kind: text("kind", { enum: ["continue", "picker"] }).notNull(),
    platformId: text("platform_id").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    expiresAt: text("expires_at").notNull(),
    /** Null until the ticket is spent. */
    usedAt: text("used_at"),
  },
  (t) => [index("lti_tickets_expiry_idx").on(t.expiresAt)],
);
