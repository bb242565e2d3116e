import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { bindingOf } from "../db/session";
import { statement } from "../db/statements";
import { assetIdsIn } from "../domain/asset-references";
import type { Database } from "../env";
import { errorChainText, validationFailed } from "../lib/errors";
import type { QuestionRow } from "./question-rows";

/**
 * Which assets each question refers to (docs/assets.md#references): the table asset_references,
 * rewritten in the very batch that writes the question (create, patch, import; a delete takes
 * the rows with it by cascade), so that it never names a question's text other than the stored one.
 */

/** Every text of a question that may name an asset: its prompt, explanation, title, feedback and every text of its definition. */
const questionTexts = (row: Pick<QuestionRow, "prompt" | "explanation" | "title" | "feedback" | "definition">) => [
  row.prompt,
  row.explanation ?? "",
  row.title ?? "",
  JSON.stringify(row.feedback),
  JSON.stringify(row.definition),
];

/** The (asset, question) pairs of the questions' texts. */
const referencePairs = (rows: readonly QuestionRow[]) =>
  rows.flatMap((row) => assetIdsIn(questionTexts(row)).map((assetId) => [assetId, row.id] as const));

interface ReferenceOptions {
  /** The questions had references before (a patch): theirs are replaced. */
  replace?: boolean;
  /**
   * An id naming no asset: "refuse" (the API's writes) fails the batch — asset_id NULL breaks the
   * NOT NULL constraint, which unknownAssetFailure turns into a 400 — and "skip" (an import, whose
   * text came from elsewhere) leaves the text as written and records nothing for it.
   */
  unknown: "refuse" | "skip";
  /** The condition the batch's write of the questions holds on (an optimistic write's guard): the rows change only with them. */
  when?: SQL;
}

/**
 * The statements that make asset_references hold the questions' references: placed after the
 * questions' inserts in the same batch (the rows name them), or, for a guarded update, anywhere
 * in it with the update's own guard as `when`. One JSON parameter, whatever the number of pairs
 * (D1 binds at most 100 a statement).
 */
export function assetReferenceStatements(
  db: Database,
  rows: readonly QuestionRow[],
  { replace = false, unknown, when }: ReferenceOptions,
): D1PreparedStatement[] {
  const guard = when ?? sql`1`;
  const out: D1PreparedStatement[] = [];
  if (replace) {
    const ids = JSON.stringify(rows.map((row) => row.id));
    out.push(
      statement(db, sql`DELETE FROM asset_references WHERE question_id IN (SELECT value FROM json_each(${ids})) AND ${guard}`),
    );
  }
  const pairs = referencePairs(rows);
  if (pairs.length === 0) return out;
  const join = unknown === "refuse" ? sql`LEFT JOIN` : sql`JOIN`;
  out.push(
    statement(
      db,
      sql`INSERT INTO asset_references (asset_id, question_id)
          SELECT assets.id, json_extract(p.value, '$[1]') FROM json_each(${JSON.stringify(pairs)}) AS p
          ${join} assets ON assets.id = json_extract(p.value, '$[0]')
          WHERE ${guard}
          ON CONFLICT DO NOTHING`,
    ),
  );
  return out;
}

/** The ids among `ids` that name an asset in `db`. */
async function existing(db: Database, ids: string[]): Promise<Set<string>> {
  const known = await db.all<{ id: string }>(
    sql`SELECT id FROM assets WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  return new Set(known.map((k) => k.id));
}

/**
 * 400 naming the ids of the questions' texts that are no asset, at `path` (the questions' own, or
 * `questions.<i>` of a quiz's), read before the batch; the batch itself refuses one deleted since.
 * The request's session may read a replica that has not seen an upload made a moment ago (its
 * client sent no bookmark): an id it does not find is looked for again on the primary before it is
 * refused, so an image uploaded and then used at once is never refused.
 */
export async function refuseUnknownAssets(db: Database, rows: readonly QuestionRow[], path: (index: number) => string) {
  const mentioned = rows.map((row) => assetIdsIn(questionTexts(row)));
  const all = [...new Set(mentioned.flat())];
  if (all.length === 0) return;
  const exists = await existing(db, all);
  const unseen = all.filter((id) => !exists.has(id));
  if (unseen.length > 0)
    for (const id of await existing(drizzle(bindingOf(db) as D1Database) as Database, unseen)) exists.add(id);
  const errors = mentioned.flatMap((ids, i) =>
    ids
      .filter((id) => !exists.has(id))
      .map((id) => ({
        path: path(i),
        message: `No asset ${id} exists: upload the image with POST /v1/assets and refer to the url it answers.`,
      })),
  );
  if (errors.length > 0) throw validationFailed(errors);
}

/** The 400 for a batch that failed because a referred asset was gone when it ran; undefined for any other failure. */
export function unknownAssetFailure(error: unknown) {
  if (!errorChainText(error).includes("NOT NULL constraint failed: asset_references.asset_id")) return undefined;
  return validationFailed([{ path: "", message: "An asset the question refers to does not exist (any more): upload it again." }]);
}
