import { sql } from "drizzle-orm";
import {
  type ItemAttempts,
  type ItemSums,
  type ItemSumsTuple,
  itemFigures,
  itemFlags,
  itemSumsOf,
  type OptionSums,
  type OptionSumsTuple,
  optionFigures,
  reliability,
  type TotalSums,
  totalFigures,
} from "../../domain/item-analysis";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

interface ItemsRow {
  quiz_id: string;
  /** The population's sums: totals, then items and options as JSON; null before its first grade. */
  n: number | null;
  sum_t: number | null;
  sum_tt: number | null;
  items: string | null;
  options: string | null;
  /** The current questions in order (JSON): [id, options of a choice question, its key]. */
  current: string;
}

type CurrentTuple = [string, unknown, unknown];

/** JSON that a union may have handed over as text. */
const parsed = <T>(value: unknown): T | null => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T | null));

/**
 * Item analysis in one query at any number of submissions: the population's sums (one row: its
 * totals, each item's sums and each option's count and total points of those who chose it) and
 * the current questions in order, with, for choice questions, their options and key (for the flag
 * of a wrong option that attracts strong users). Items are the current questions, then questions
 * deleted after they were graded (by id).
 */
export async function itemAnalysis(db: Database, quizId: string, attempts: ItemAttempts) {
  const [row] = await db.all<ItemsRow>(sql`
    SELECT q.id AS quiz_id, s.n, s.sum_t, s.sum_tt, s.items, s.options,
      (SELECT json_group_array(json_array(id,
           CASE WHEN type IN ('single_choice', 'multiple_choice') THEN json_extract(definition, '$.options') END,
           CASE type WHEN 'single_choice' THEN json_array(json_extract(definition, '$.correct_option_id'))
             WHEN 'multiple_choice' THEN json_extract(definition, '$.correct_option_ids') END))
         FROM (SELECT id, type, definition FROM questions WHERE quiz_id = q.id ORDER BY position)) AS current
    FROM quizzes q LEFT JOIN item_sums s ON s.quiz_id = q.id AND s.attempts = ${attempts}
    WHERE q.id = ${quizId}`);
  if (!row) throw notFound("Quiz");
  const totals: TotalSums = { n: row.n ?? 0, sum_t: row.sum_t ?? 0, sum_tt: row.sum_tt ?? 0 };
  // Maps, not objects: question and option ids are data, and "constructor" or "__proto__" must
  // not find Object.prototype's members.
  const stored = new Map(Object.entries(parsed<Record<string, ItemSumsTuple>>(row.items) ?? {}));
  const chosen = new Map(Object.entries(parsed<Record<string, Record<string, OptionSumsTuple>>>(row.options) ?? {}));
  const current = JSON.parse(row.current) as CurrentTuple[];
  const shown = new Set(current.map(([id]) => id));
  const deleted = [...stored.keys()]
    .filter((id) => !shown.has(id) && (stored.get(id)?.[0] ?? 0) > 0)
    .sort()
    .map((id): CurrentTuple => [id, null, null]);
  const questions = [...current, ...deleted];
  const sums = questions.map(([id]): ItemSums => itemSumsOf(stored.get(id)));
  return {
    quiz_id: row.quiz_id,
    attempts,
    ...totalFigures(totals),
    reliability: reliability(totals, sums),
    items: questions.map(([id, optionList, key], i) => {
      const item = sums[i] as ItemSums;
      const figures = itemFigures(id, item);
      const options = parsed<{ id: string }[]>(optionList);
      const counts = new Map(Object.entries(chosen.get(id) ?? {}));
      const shownOptions = (options ?? []).map((o) => {
        const [count, sum_t] = counts.get(o.id) ?? [0, 0];
        return optionFigures(o.id, item, { count, sum_t } satisfies OptionSums);
      });
      const flags = itemFlags(figures, shownOptions, new Set(parsed<string[]>(key) ?? []));
      return { ...figures, flags, ...(options === null ? {} : { options: shownOptions }) };
    }),
  };
}
