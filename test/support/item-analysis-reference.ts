import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Schema } from "./call";

/**
 * Item analysis from scratch, in floating point, over the raw graded submissions: each answer's
 * points as its results store them, the responses as the answers store them. Two-pass formulas
 * (means first, then deviations), nothing shared with the sufficient statistics the API keeps.
 */

interface Entry {
  question_id: string;
  points_earned: number;
  points_possible: number;
}

interface Graded {
  user_id: string;
  attempt: number;
  results: Entry[];
  answers: { question_id: string; response: unknown }[];
}

interface ReferenceOption {
  option_id: string;
  count: number;
  share: number | null;
  mean_total: number | null;
  point_biserial: number | null;
}

interface ReferenceItem {
  question_id: string;
  n: number;
  difficulty: number | null;
  discrimination: number | null;
  flags: string[];
  options?: ReferenceOption[];
}

export interface ReferenceAnalysis {
  n: number;
  mean_points: number | null;
  stddev_points: number | null;
  reliability: number | null;
  items: ReferenceItem[];
}

/** A figure as the API answers it: six decimals. */
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 1e6) / 1e6);

/**
 * docs/item-analysis.md's flags, from the figures as the API rounds them (a discrimination that is
 * 0 exactly comes out of floating point as ±1e-17, which is 0 at six decimals): discrimination < 0
 * and < 0.2, difficulty > 0.95 or < 0.2, a strong distractor.
 */
function flagsOf(exactDifficulty: number | null, exactDiscrimination: number | null, strongDistractors: unknown[]): string[] {
  const difficulty = rounded(exactDifficulty);
  const discrimination = rounded(exactDiscrimination);
  const flags: string[] = [];
  if (discrimination !== null && discrimination < 0) flags.push("negative_discrimination");
  if (discrimination !== null && discrimination < 0.2) flags.push("low_discrimination");
  if (difficulty !== null && difficulty > 0.95) flags.push("too_easy");
  if (difficulty !== null && difficulty < 0.2) flags.push("too_hard");
  if (strongDistractors.length > 0) flags.push("distractor_attracts_strong");
  return flags;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const pvariance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
};
/** A variance this small is no variation at all (sums of decimal points are not exact in binary). */
const ZERO = 1e-12;

function pearson(xs: number[], ys: number[]): number | null {
  const vx = pvariance(xs);
  const vy = pvariance(ys);
  if (vx <= ZERO || vy <= ZERO) return null;
  const mx = mean(xs);
  const my = mean(ys);
  const cov = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / xs.length;
  return cov / Math.sqrt(vx * vy);
}

export async function referenceItemAnalysis(quizId: string, attempts: "all" | "first"): Promise<ReferenceAnalysis> {
  const { results: rows } = await env.DB.prepare(
    "SELECT user_id, attempt, results, answers FROM submissions WHERE quiz_id = ? AND status = 'graded' ORDER BY attempt",
  )
    .bind(quizId)
    .all<{ user_id: string; attempt: number; results: string; answers: string }>();
  let graded: Graded[] = rows.map((r) => ({
    user_id: r.user_id,
    attempt: r.attempt,
    results: JSON.parse(r.results),
    answers: JSON.parse(r.answers),
  }));
  if (attempts === "first") {
    const firsts = new Map<string, Graded>();
    for (const g of graded) if (!firsts.has(g.user_id)) firsts.set(g.user_id, g);
    graded = [...firsts.values()];
  }
  const { results: questions } = await env.DB.prepare(
    "SELECT id, type, definition FROM questions WHERE quiz_id = ? ORDER BY position",
  )
    .bind(quizId)
    .all<{ id: string; type: string; definition: string }>();
  const current = new Set(questions.map((q) => q.id));
  const deleted = [...new Set(graded.flatMap((g) => g.results.map((e) => e.question_id)))]
    .filter((id) => !current.has(id))
    .sort();

  const totalOf = (g: Graded) => g.results.reduce((s, e) => s + e.points_earned, 0);
  const totals = graded.map(totalOf);
  const n = graded.length;

  const itemOf = (questionId: string): ReferenceItem => {
    const presented = graded.filter((g) => g.results.some((e) => e.question_id === questionId));
    const xs = presented.map((g) => g.results.find((e) => e.question_id === questionId)!.points_earned);
    const ps = presented.map((g) => g.results.find((e) => e.question_id === questionId)!.points_possible);
    const rests = presented.map((g, i) => totalOf(g) - xs[i]!);
    if (presented.length === 0) return { question_id: questionId, n: 0, difficulty: null, discrimination: null, flags: [] };
    const possible = ps.reduce((s, p) => s + p, 0);
    const difficulty = possible > 0 ? xs.reduce((s, x) => s + x, 0) / possible : null;
    const discrimination = pearson(xs, rests);
    return {
      question_id: questionId,
      n: presented.length,
      difficulty,
      discrimination,
      flags: flagsOf(difficulty, discrimination, []),
    };
  };

  /** Each option over the submissions presented the question: who chose it, and their totals (points). */
  const optionOf = (questionId: string, optionId: string): ReferenceOption => {
    const presented = graded.filter((g) => g.results.some((e) => e.question_id === questionId));
    const chose = presented.map((g) => {
      const response = g.answers.find((a) => a.question_id === questionId)?.response;
      return response === optionId || (Array.isArray(response) && response.includes(optionId)) ? 1 : 0;
    });
    const ts = presented.map(totalOf);
    const count = chose.reduce<number>((s, c) => s + c, 0);
    return {
      option_id: optionId,
      count,
      share: presented.length > 0 ? count / presented.length : null,
      mean_total: count > 0 ? ts.filter((_, i) => chose[i] === 1).reduce((s, t) => s + t, 0) / count : null,
      point_biserial: count === 0 || count === presented.length ? null : pearson(chose, ts),
    };
  };

  const items = [
    ...questions.map((q) => {
      const item = itemOf(q.id);
      if (q.type !== "single_choice" && q.type !== "multiple_choice") return item;
      const definition = JSON.parse(q.definition);
      const options = (definition.options as { id: string }[]).map((o) => optionOf(q.id, o.id));
      const key: string[] = q.type === "single_choice" ? [definition.correct_option_id] : definition.correct_option_ids;
      const wrongAttracts = options.filter((o) => !key.includes(o.option_id) && (rounded(o.point_biserial) ?? 0) > 0);
      return { ...item, flags: flagsOf(item.difficulty, item.discrimination, wrongAttracts), options };
    }),
    ...deleted.map(itemOf).filter((i) => i.n > 0),
  ];

  // Alpha: only when every submission was presented the same questions.
  const sets = new Set(graded.map((g) => JSON.stringify(g.results.map((e) => e.question_id).sort())));
  let reliability: number | null = null;
  if (n > 0 && sets.size === 1) {
    const ids = graded[0]!.results.map((e) => e.question_id);
    const k = ids.length;
    const vt = pvariance(totals);
    if (k >= 2 && vt > ZERO) {
      const itemVariances = ids.map((id) =>
        pvariance(graded.map((g) => g.results.find((e) => e.question_id === id)!.points_earned)),
      );
      reliability = (k / (k - 1)) * (1 - itemVariances.reduce((s, v) => s + v, 0) / vt);
    }
  }
  return {
    n,
    mean_points: n > 0 ? mean(totals) : null,
    stddev_points: n > 0 ? Math.sqrt(pvariance(totals)) : null,
    reliability,
    items,
  };
}

const close = (api: number | null, exact: number | null, what: string) => {
  if (exact === null || api === null) expect(api, what).toBe(exact);
  else expect(Math.abs(api - exact), `${what}: ${api} vs ${exact}`).toBeLessThanOrEqual(0.00005);
};

/** Every figure within 0.00005 of the reference; nulls where the reference has them. */
export function expectItemAnalysisMatch(api: Schema<"ItemAnalysis">, exact: ReferenceAnalysis): void {
  expect(api.n).toBe(exact.n);
  close(api.mean_points, exact.mean_points, "mean_points");
  close(api.stddev_points, exact.stddev_points, "stddev_points");
  close(api.reliability, exact.reliability, "reliability");
  expect(api.items.map((i) => i.question_id)).toEqual(exact.items.map((i) => i.question_id));
  exact.items.forEach((item, i) => {
    const got = api.items[i]!;
    expect(got.n, `${item.question_id} n`).toBe(item.n);
    close(got.difficulty, item.difficulty, `${item.question_id} difficulty`);
    close(got.discrimination, item.discrimination, `${item.question_id} discrimination`);
    expect(got.flags, `${item.question_id} flags`).toEqual(item.flags);
    expect(
      got.options?.map((o) => [o.option_id, o.count]),
      `${item.question_id} options`,
    ).toEqual(item.options?.map((o) => [o.option_id, o.count]));
    item.options?.forEach((o, k) => {
      const what = `${item.question_id} option ${o.option_id}`;
      const option = got.options![k]!;
      close(option.share, o.share, `${what} share`);
      close(option.mean_total, o.mean_total, `${what} mean_total`);
      close(option.point_biserial, o.point_biserial, `${what} point_biserial`);
    });
  });
}
