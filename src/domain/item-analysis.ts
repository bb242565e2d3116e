/**
 * Item analysis from sufficient statistics (docs/item-analysis.md): no I/O. Grading adds each
 * graded submission's sums, a regrade adds the difference between its new and old sums, so the
 * figures of any number of submissions are computed from a handful of numbers per item.
 *
 * Points are in integer micro-points (1 point = 1 000 000), as everywhere else: x is an item's
 * points earned, p its points possible, t the submission's total points earned.
 */

import { fromMicro } from "./points";

/** The two populations analysed: every graded submission, or each user's earliest-created graded one. */
export const ITEM_ATTEMPTS = ["all", "first"] as const;
export type ItemAttempts = (typeof ITEM_ATTEMPTS)[number];

/** Over the submissions presented one item: n, Σx, Σx², Σp, Σt, Σt², Σxt. */
export interface ItemSums {
  n: number;
  sum_x: number;
  sum_xx: number;
  sum_p: number;
  sum_t: number;
  sum_tt: number;
  sum_xt: number;
}

/**
 * How the sums of one item are stored (item_sums.items): n, Σx, Σx², Σp, Σt, Σt², Σxt, and how many
 * of the n answers were right (the quiz analytics' correct count). Positions are the stored layout.
 */
export type ItemSumsTuple = [number, number, number, number, number, number, number, number];

/** How one option's sums are stored (item_sums.options): its count and Σt of those who chose it. */
export type OptionSumsTuple = [number, number];

/** An item's stored tuple as sums, with its right answers. */
export function itemSumsOf(tuple: ItemSumsTuple | undefined): ItemSums & { right: number } {
  const [n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt, right] = tuple ?? [0, 0, 0, 0, 0, 0, 0, 0];
  return { n, sum_x, sum_xx, sum_p, sum_t, sum_tt, sum_xt, right };
}

/** Over the submissions counted: n, Σt, Σt². */
export interface TotalSums {
  n: number;
  sum_t: number;
  sum_tt: number;
}

/**
 * Below this share of the mean square, a variance is rounding left in running sums that were
 * added to and taken from (a regrade that gives everyone the same points), and is 0.
 */
const ZERO_VARIANCE = 1e-9;

/** Population variance of n values from Σv and Σv², or 0 when it is only rounding. */
function variance(n: number, sum: number, sumSquares: number): number {
  if (n === 0) return 0;
  const meanSquare = sumSquares / n;
  const mean = sum / n;
  const v = meanSquare - mean * mean;
  return v <= ZERO_VARIANCE * meanSquare ? 0 : v;
}

const round = (value: number, decimals = 6) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export interface ItemFigures {
  question_id: string;
  n: number;
  difficulty: number | null;
  discrimination: number | null;
}

/**
 * One item's figures over the n submissions presented it: difficulty = Σx ÷ Σp; discrimination =
 * Pearson's r of x with the rest r = t − x, whose variance and covariance follow from the sums:
 * var(r) = var(t) − 2 cov(x,t) + var(x), cov(x,r) = cov(x,t) − var(x).
 */
export function itemFigures(question_id: string, s: ItemSums): ItemFigures {
  const { n } = s;
  if (n === 0) return { question_id, n, difficulty: null, discrimination: null };
  const difficulty = s.sum_p > 0 ? round(s.sum_x / s.sum_p) : null;
  const vx = variance(n, s.sum_x, s.sum_xx);
  const vt = variance(n, s.sum_t, s.sum_tt);
  const cxt = s.sum_xt / n - (s.sum_x / n) * (s.sum_t / n);
  const sumRR = s.sum_tt - 2 * s.sum_xt + s.sum_xx;
  const vr = vt - 2 * cxt + vx;
  const restIsConstant = vr <= ZERO_VARIANCE * (sumRR / n);
  if (vx === 0 || restIsConstant) return { question_id, n, difficulty, discrimination: null };
  const r = (cxt - vx) / Math.sqrt(vx * vr);
  return { question_id, n, difficulty, discrimination: round(Math.max(-1, Math.min(1, r))) };
}

/** Over the submissions presented an item that chose one of its options: how many, and Σt. */
export interface OptionSums {
  count: number;
  sum_t: number;
}

export interface OptionFigures {
  option_id: string;
  count: number;
  share: number | null;
  mean_total: number | null;
  point_biserial: number | null;
}

/**
 * Distractor analysis of one option over the item's n submissions: share = count ÷ n; mean total
 * = Σt ÷ count (points); point-biserial = Pearson's r of chose (1/0) with t, which for a 0/1
 * variable of mean q = count ÷ n is (Σt_chose ÷ n − q·mean t) ÷ √(q(1−q)·var t); null when
 * nobody or everybody chose it or the total does not vary.
 */
export function optionFigures(option_id: string, item: ItemSums, o: OptionSums): OptionFigures {
  const { n } = item;
  const share = n > 0 ? round(o.count / n) : null;
  const mean_total = o.count > 0 ? round(fromMicro(o.sum_t / o.count)) : null;
  const vt = variance(n, item.sum_t, item.sum_tt);
  if (o.count === 0 || o.count >= n || vt === 0) return { option_id, count: o.count, share, mean_total, point_biserial: null };
  const q = o.count / n;
  const r = (o.sum_t / n - q * (item.sum_t / n)) / Math.sqrt(q * (1 - q) * vt);
  return { option_id, count: o.count, share, mean_total, point_biserial: round(Math.max(-1, Math.min(1, r))) };
}

/** The flags an item can carry (docs/item-analysis.md: thresholds and meaning). */
export const ITEM_FLAGS = [
  "negative_discrimination",
  "low_discrimination",
  "too_easy",
  "too_hard",
  "distractor_attracts_strong",
] as const;
export type ItemFlag = (typeof ITEM_FLAGS)[number];

/** Discrimination below this is low; difficulty above TOO_EASY or below TOO_HARD is flagged. */
const LOW_DISCRIMINATION = 0.2;
const TOO_EASY = 0.95;
const TOO_HARD = 0.2;

/**
 * An item's flags from its figures: discrimination below 0 (negative) and below 0.2 (low — a
 * negative one is low too); difficulty above 0.95 or below 0.2; a wrong option (not in `key`)
 * whose choosers score higher than the rest (point-biserial > 0). No figure, no flag.
 */
export function itemFlags(item: ItemFigures, options: readonly OptionFigures[], key: ReadonlySet<string>): ItemFlag[] {
  const flags: ItemFlag[] = [];
  const d = item.discrimination;
  if (d !== null && d < 0) flags.push("negative_discrimination");
  if (d !== null && d < LOW_DISCRIMINATION) flags.push("low_discrimination");
  if (item.difficulty !== null && item.difficulty > TOO_EASY) flags.push("too_easy");
  if (item.difficulty !== null && item.difficulty < TOO_HARD) flags.push("too_hard");
  if (options.some((o) => !key.has(o.option_id) && o.point_biserial !== null && o.point_biserial > 0))
    flags.push("distractor_attracts_strong");
  return flags;
}

/**
 * Cronbach's alpha, k/(k−1) · (1 − Σ var(x_i) ÷ var(t)), over the items presented: null unless
 * every counted submission was presented every one of them (then each item's n is the total's n,
 * and the converse), there are at least 2 and the total varies. With right/wrong items this is
 * KR-20: each item's population variance is then w²·p(1−p).
 */
export function reliability(totals: TotalSums, items: ItemSums[]): number | null {
  const presented = items.filter((s) => s.n > 0);
  const k = presented.length;
  if (totals.n === 0 || k < 2 || presented.some((s) => s.n !== totals.n)) return null;
  const vt = variance(totals.n, totals.sum_t, totals.sum_tt);
  if (vt === 0) return null;
  const itemVariance = presented.reduce((sum, s) => sum + variance(s.n, s.sum_x, s.sum_xx), 0);
  return round((k / (k - 1)) * (1 - itemVariance / vt));
}

/** The test-level figures: the mean and population standard deviation of total points. */
export function totalFigures(totals: TotalSums) {
  if (totals.n === 0) return { n: 0, mean_points: null, stddev_points: null };
  return {
    n: totals.n,
    mean_points: round(fromMicro(totals.sum_t / totals.n)),
    stddev_points: round(fromMicro(Math.sqrt(variance(totals.n, totals.sum_t, totals.sum_tt)))),
  };
}
