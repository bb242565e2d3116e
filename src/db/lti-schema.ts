import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// LTI 1.3 (docs/lti.md): platforms, the tool's keys, launches and the passback ledger.
// Timestamps as in schema.ts.

/** An LMS registration: launches from `issuer` for `client_id` are accepted from its deployments. */
export const ltiPlatforms = sqliteTable(
  "lti_platforms",
  {
    id: text("id").primaryKey(),
    issuer: text("issuer").notNull(),
    clientId: text("client_id").notNull(),
    deploymentIds: text("deployment_ids", { mode: "json" }).$type<string[]>().notNull(),
    authTokenUrl: text("auth_token_url").notNull(),
    jwksUrl: text("jwks_url").notNull(),
    /** The `aud` of the client assertion; null: the token URL. */
    audience: text("audience"),
    /** The platform's OIDC authorization endpoint, where /lti/login sends the browser; null: no launches through the tool's pages. */
    authLoginUrl: text("auth_login_url"),
    /** Origins that may frame the tool's pages (frame-ancestors), besides the tool's own. */
    frameOrigins: text("frame_origins", { mode: "json" }).$type<string[]>().notNull().default([]),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  // One registration per (issuer, client_id): Canvas Cloud uses one issuer for every school.
  (t) => [uniqueIndex("lti_platforms_issuer_client_idx").on(t.issuer, t.clientId)],
);

/**
 * The tool's RS256 key pairs. One `current` key signs client assertions; a rotated-out key stays
 * `previous` (listed in the JWKS, never signing) until `listed_until`. The private key is sealed
 * (AES-GCM under LTI_SEALING_KEY, or WEBHOOK_SECRET_KEY without it, bound to the kid: src/lib/sealing.ts).
 */
export const ltiKeys = sqliteTable(
  "lti_keys",
  {
    kid: text("kid").primaryKey(),
    status: text("status", { enum: ["current", "previous"] }).notNull(),
    publicJwk: text("public_jwk", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    privateSealed: text("private_sealed").notNull(),
    createdAt: text("created_at").notNull(),
    listedUntil: text("listed_until"),
  },
  // At most one current key, whatever races: the second of two first needs inserts nothing.
  (t) => [uniqueIndex("lti_keys_current_idx").on(t.status).where(sql`status = 'current'`)],
);

/** Nonces of accepted launches (SHA-256), kept while a token carrying one could still be accepted. */
export const ltiNonces = sqliteTable(
  "lti_nonces",
  {
    platformId: text("platform_id").notNull(),
    nonceHash: text("nonce_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.nonceHash] }), index("lti_nonces_expiry_idx").on(t.expiresAt)],
);

/** The user a platform's `sub` is. */
export const ltiIdentities = sqliteTable(
  "lti_identities",
  {
    platformId: text("platform_id").notNull(),
    sub: text("sub").notNull(),
    userId: text("user_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.sub] }), index("lti_identities_user_idx").on(t.userId)],
);

/** Which quiz a platform's resource link opens (PUT /v1/lti/links/{resource_link_id}). */
export const ltiLinks = sqliteTable(
  "lti_links",
  {
    platformId: text("platform_id").notNull(),
    resourceLinkId: text("resource_link_id").notNull(),
    quizId: text("quiz_id").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.resourceLinkId] })],
);

/** An accepted launch: who, from where, into which quiz, and its AGS claim. */
export const ltiLaunches = sqliteTable("lti_launches", {
  id: text("id").primaryKey(),
  platformId: text("platform_id").notNull(),
  userId: text("user_id").notNull(),
  sub: text("sub").notNull(),
  deploymentId: text("deployment_id").notNull(),
  quizId: text("quiz_id"),
  roles: text("roles", { mode: "json" }).$type<string[]>().notNull(),
  context: text("context", { mode: "json" }).$type<Record<string, string>>(),
  resourceLink: text("resource_link", { mode: "json" }).$type<Record<string, string>>().notNull(),
  /** The AGS line item scores go to; null when the launch grants none. */
  lineitem: text("lineitem"),
  agsScopes: text("ags_scopes", { mode: "json" }).$type<string[]>(),
  /** The NRPS claim's context_memberships_url (the course's roster); null when the launch grants none. */
  membershipsUrl: text("memberships_url"),
  createdAt: text("created_at").notNull(),
});

/** A submission created with lti_launch_id: its user's kept grade goes to this line item. */
export const ltiSubmissions = sqliteTable(
  "lti_submissions",
  {
    submissionId: text("submission_id").primaryKey(),
    launchId: text("launch_id").notNull(),
    platformId: text("platform_id").notNull(),
    lineitem: text("lineitem").notNull(),
    quizId: text("quiz_id").notNull(),
    userId: text("user_id").notNull(),
    /** The platform's `sub` for the user: the score's userId. */
    ltiUserId: text("lti_user_id").notNull(),
  },
  (t) => [index("lti_submissions_quiz_user_idx").on(t.quizId, t.userId)],
);

/**
 * The passback ledger: one row per (platform, line item, user) holding the user's latest kept
 * grade and where its way to the gradebook stands. `version` moves with every new state to send;
 * a send records its outcome only for the version it sent (compare-and-set), under a lease that
 * keeps one row from being sent twice at once and counts the platform's requests in flight.
 */
export const ltiPassbacks = sqliteTable(
  "lti_passbacks",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id").notNull(),
    lineitem: text("lineitem").notNull(),
    userId: text("user_id").notNull(),
    quizId: text("quiz_id").notNull(),
    ltiUserId: text("lti_user_id").notNull(),
    submissionId: text("submission_id").notNull(),
    /** Null while PendingManual: the score is then sent without scoreGiven and scoreMaximum. */
    scoreGiven: real("score_given"),
    scoreMaximum: real("score_maximum"),
    gradingProgress: text("grading_progress", { enum: ["FullyGraded", "PendingManual"] }).notNull(),
    /** When the kept grade changed: the score's timestamp. */
    scoreTimestamp: text("score_timestamp").notNull(),
    version: integer("version").notNull().default(1),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    /** Tries of the current state, the successful one included. */
    attempts: integer("attempts").notNull().default(0),
    lastResponseStatus: integer("last_response_status"),
    lastError: text("last_error"),
    nextRetryAt: text("next_retry_at"),
    leaseToken: text("lease_token"),
    leaseUntil: text("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("lti_passbacks_target_idx").on(t.platformId, t.lineitem, t.userId),
    index("lti_passbacks_quiz_idx").on(t.quizId, t.id),
    index("lti_passbacks_user_idx").on(t.userId, t.id),
    index("lti_passbacks_status_idx").on(t.status, t.id),
    // The requests in flight to a platform: its rows under a live lease.
    index("lti_passbacks_leased_idx").on(t.platformId, t.leaseUntil).where(sql`lease_until IS NOT NULL`),
  ],
);
