import { sql } from "drizzle-orm";
import {
  type ItemAttempts,
  type ItemSums,
  itemFigures,
  itemFlags,
  type OptionSums,
  optionFigures,
  reliability,
  type TotalSums,
  totalFigures,
} from "../../domain/item-analysis";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";

interface ItemsRow {
  quiz_id: string;
  totals: string | null;
  items: string;
}

type ItemTuple = [string, number, number, number, number, number, number, number, unknown, unknown, unknown];

/** JSON that a union may have handed over as text. */
const parsed = <T>(value: unknown): T | null => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T | null));

/**
 * Item analysis in one query at any number of submissions: the population's totals, each item's
 * sums (current questions in order, then questions deleted after they were graded) and, for
 * choice questions, the current options with how often each was chosen and the total points of
 * those who chose it, and the key (for the flag of a wrong option that attracts strong users).
 */
export async function itemAnalysis(db: Database, quizId: string, attempts: ItemAttempts) {
  const [row] = await db.all<ItemsRow>(sql`
    SELECT q.id AS quiz_id,
      (SELECT json_array(n, sum_t, sum_tt) FROM item_totals WHERE quiz_id = q.id AND attempts = ${attempts}) AS totals,
      (SELECT json_group_array(json_array(id, n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt, options, counts, key)) FROM (
         SELECT qs.id, coalesce(st.n, 0) AS n, coalesce(st.sum_x, 0) AS sum_x, coalesce(st.sum_xx, 0) AS sum_xx,
           coalesce(st.sum_p, 0) AS sum_p, coalesce(st.sum_t, 0) AS sum_t, coalesce(st.sum_tt, 0) AS sum_tt,
           coalesce(st.sum_xt, 0) AS sum_xt,
           CASE WHEN qs.type IN ('single_choice', 'multiple_choice') THEN json_extract(qs.definition, '$.options') END AS options,
           CASE WHEN qs.type IN ('single_choice', 'multiple_choice') THEN (SELECT json_group_object(c.option_id, json_array(c.count, c.sum_t))
             FROM item_option_counts c WHERE c.quiz_id = qs.quiz_id AND c.attempts = ${attempts} AND c.question_id = qs.id) END AS counts,
           CASE qs.type WHEN 'single_choice' THEN json_array(json_extract(qs.definition, '$.correct_option_id'))
             WHEN 'multiple_choice' THEN json_extract(qs.definition, '$.correct_option_ids') END AS key,
           0 AS deleted, qs.position
         FROM questions qs LEFT JOIN item_stats st ON st.quiz_id = qs.quiz_id AND st.attempts = ${attempts} AND st.question_id = qs.id
         WHERE qs.quiz_id = q.id
         UNION ALL
         SELECT st.question_id, st.n, st.sum_x, st.sum_xx, st.sum_p, st.sum_t, st.sum_tt, st.sum_xt, NULL, NULL, NULL, 1, 0
         FROM item_stats st
         WHERE st.quiz_id = q.id AND st.attempts = ${attempts} AND st.n > 0
           AND NOT EXISTS (SELECT 1 FROM questions x WHERE x.id = st.question_id)
         ORDER BY deleted, position, id)) AS items
    FROM quizzes q WHERE q.id = ${quizId}`);
  if (!row) throw notFound("Quiz");
  const [n, sum_t, sum_tt] = parsed<[number, number, number]>(row.totals) ?? [0, 0, 0];
  const totals: TotalSums = { n, sum_t, sum_tt };
  const tuples = JSON.parse(row.items) as ItemTuple[];
  const sums = tuples.map(
    ([, n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt]): ItemSums => ({ n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt }),
  );
  return {
    quiz_id: row.quiz_id,
    attempts,
    ...totalFigures(totals),
    reliability: reliability(totals, sums),
    items: tuples.map((tuple, i) => {
      const item = sums[i] as ItemSums;
      const figures = itemFigures(tuple[0], item);
      const options = parsed<{ id: string }[]>(tuple[8]);
      // A Map, not an object: an option id is data, and "constructor" or "__proto__" must not
      // find Object.prototype's members.
      const chosen = new Map(Object.entries(parsed<Record<string, [number, number]>>(tuple[9]) ?? {}));
      const shown = (options ?? []).map((o) => {
        const [count, sum_t] = chosen.get(o.id) ?? [0, 0];
        return optionFigures(o.id, item, { count, sum_t } satisfies OptionSums);
      });
      const flags = itemFlags(figures, shown, new Set(parsed<string[]>(tuple[10]) ?? []));
      return { ...figures, flags, ...(options === null ? {} : { options: shown }) };
    }),
  };
}
