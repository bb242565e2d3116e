import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Learner and report sessions (§17): short-lived tokens for a browser. Timestamps as in schema.ts.

/** A learner session: one user taking one quiz, from the origins it names. */
export const learnerSessions = sqliteTable(
  "learner_sessions",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the token, hex. The token itself is shown once and never stored. */
    tokenHash: text("token_hash").notNull(),
    userId: text("user_id").notNull(),
    quizId: text("quiz_id").notNull(),
    /** The origins a browser may call the API from with the token (CORS), normalised. */
    origins: text("origins", { mode: "json" }).$type<string[]>().notNull(),
    returnUrl: text("return_url"),
    /** The LTI launch the session was minted for: submissions it creates are tied to it (§15). */
    ltiLaunchId: text("lti_launch_id"),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("learner_sessions_token_hash_idx").on(t.tokenHash), index("learner_sessions_user_idx").on(t.userId)],
);

/** A report session: reading the named quizzes' reports. */
export const reportSessions = sqliteTable(
  "report_sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    quizIds: text("quiz_ids", { mode: "json" }).$type<string[]>().notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("report_sessions_token_hash_idx").on(t.tokenHash)],
);
