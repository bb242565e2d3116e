import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// LTI rosters (NRPS 2.0, docs/lti.md): a course's members as its platform last listed them.
// Timestamps as in schema.ts.

/**
 * A course's roster: which generation of member rows is the current one. A sync writes its rows
 * under its own generation (its job id) and, once every page is read, makes it current and deletes
 * the generation it replaces in one batch: a reader sees the whole of one sync or of the one
 * before, never half of one, and a sync that fails leaves the current roster as it was.
 */
export const ltiRosters = sqliteTable(
  "lti_rosters",
  {
    platformId: text("platform_id").notNull(),
    /** The LTI context (course) id, as the launch's context claim carried it. */
    contextId: text("context_id").notNull(),
    generation: text("generation").notNull(),
    syncedAt: text("synced_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.contextId] })],
);

/** One member of one generation of a course's roster. */
export const ltiRosterMembers = sqliteTable(
  "lti_roster_members",
  {
    platformId: text("platform_id").notNull(),
    contextId: text("context_id").notNull(),
    /** The sync (job id) that wrote the row; current when lti_rosters names it. */
    generation: text("generation").notNull(),
    /** The platform's user_id (a launch's `sub`). */
    ltiUserId: text("lti_user_id").notNull(),
    userId: text("user_id").notNull(),
    roles: text("roles", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: ["Active", "Inactive"] }).notNull(),
    syncedAt: text("synced_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.platformId, t.contextId, t.generation, t.ltiUserId] }),
    // GET /v1/lti/launches/{id}/roster pages by user id; a swap deletes a generation.
    index("lti_roster_members_page_idx").on(t.platformId, t.contextId, t.generation, t.userId),
    index("lti_roster_members_generation_idx").on(t.generation),
  ],
);
