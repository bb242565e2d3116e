import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { questions } from "./schema";

// Questions' images (docs/assets.md). Timestamps as in schema.ts.

/**
 * An uploaded image: its bytes are in R2 (ASSETS_BUCKET) under `assets/<id>`; the same bytes
 * uploaded again are the same asset (the unique sha256), so each distinct image is stored once.
 */
export const assets = sqliteTable(
  "assets",
  {
    /** `ast_` + 32 Crockford base32 characters of 160 random bits (src/domain/asset-url.ts), not a ULID. */
    id: text("id").primaryKey(),
    /** Lower-case hex SHA-256 of the bytes: the ETag. */
    sha256: text("sha256").notNull().unique(),
    mediaType: text("media_type", { enum: ["image/png", "image/jpeg", "image/gif", "image/webp"] }).notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: text("created_at").notNull(),
    /** The last upload of these bytes (the first, or a later one): the cron keeps an unreferenced asset a day past it. */
    touchedAt: text("touched_at").notNull(),
  },
  (t) => [index("assets_touched_idx").on(t.touchedAt)],
);

/**
 * Which question's text names which asset (`/v1/assets/ast_…`), rewritten in the batch that
 * writes the question; a deleted question (or quiz) takes its rows with it. An asset is kept while
 * a row names it.
 */
export const assetReferences = sqliteTable(
  "asset_references",
  {
    assetId: text("asset_id")
      .notNull()
      .references(() => assets.id),
    questionId: text("question_id")
      .notNull()
      .references(() => questions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.questionId] }), index("asset_references_question_idx").on(t.questionId)],
);
