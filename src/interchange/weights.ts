/**
 * Per-option and per-answer credit (fractions of a question's points, as Moodle, GIFT and a QTI
 * mapping give them) onto the service's scoring rules (domain/grading.ts): single choice and
 * short text are all or nothing; multiple choice `partial` earns points × max(0, right − wrong) /
 * |correct|. Weights those rules represent exactly import as they are; any other weight is
 * rounded to the nearest rule, and the note says how.
 */
import type { Scoring } from "../domain/question-types/type";

const EPSILON = 1e-6;
const same = (a: number, b: number) => Math.abs(a - b) < EPSILON;
export const percent = (f: number) => `${Math.round(f * 1e4) / 100}%`;
const quote = (s: string) => `"${s.length > 40 ? `${s.slice(0, 39)}…` : s}"`;

/** Options where exactly one may be chosen and each earns `weight` × the points (Moodle single, GIFT with "="). */
export function singleFromWeights(options: { id: string; text: string; weight: number }[]) {
  const notes: string[] = [];
  const best = options.reduce((a, b) => (b.weight > a.weight ? b : a));
  if (!same(best.weight, 1))
    notes.push(`The best option ${quote(best.text)} gave ${percent(best.weight)} in the source; here it earns full points.`);
  for (const o of options) {
    if (o === best || same(o.weight, 0)) continue;
    notes.push(
      `Option ${quote(o.text)} gave ${percent(o.weight)} in the source; here it earns nothing (single choice is all or nothing).`,
    );
  }
  return { correct_option_id: best.id, notes };
}

/**
 * Options that may all be chosen, the score being the sum of the chosen weights clamped to 0–1
 * (Moodle's multiple answers, GIFT without "="). Exact when every positive weight is 1/k and every
 * other weight −1/k (k = the options with positive weight).
 */
export function multipleFromWeights(options: { id: string; text: string; weight: number }[]): {
  correct_option_ids: string[];
  scoring: Scoring;
  notes: string[];
} {
  const right = options.filter((o) => o.weight > EPSILON);
  const k = right.length;
  if (k === 0) return { correct_option_ids: [], scoring: "all_or_nothing", notes: ["No option gives credit."] };
  const exact = right.every((o) => same(o.weight, 1 / k)) && options.every((o) => o.weight > EPSILON || same(o.weight, -1 / k));
  const ids = right.map((o) => o.id);
  if (exact) return { correct_option_ids: ids, scoring: "partial", notes: [] };
  const given = options.map((o) => `${quote(o.text)} ${percent(o.weight)}`).join(", ");
  return {
    correct_option_ids: ids,
    scoring: "partial",
    notes: [
      `Partial-credit weights rounded to equal shares: the source gives ${given}; here each of the ${k} right options earns ${percent(1 / k)} and each wrong one takes ${percent(1 / k)} back (never below 0).`,
    ],
  };
}

/** Accepted answers with credit (Moodle short answer, GIFT "=%50%answer"): full-credit ones are kept. */
export function answersFromWeights(answers: { text: string; weight: number }[]) {
  const notes: string[] = [];
  const full = answers.filter((a) => same(a.weight, 1)).map((a) => a.text);
  for (const a of answers) {
    if (same(a.weight, 1) || same(a.weight, 0) || a.text === "*") continue;
    notes.push(`The answer ${quote(a.text)} gave ${percent(a.weight)} in the source; here it earns nothing.`);
  }
  return { accepted: full, notes };
}

/** Numeric ranges with credit: one full-credit range is kept; the others are named. */
export function rangeFromWeights<R extends { value: number; tolerance: number; weight: number; text: string }>(ranges: R[]) {
  const full = ranges.filter((r) => same(r.weight, 1));
  const notes: string[] = [];
  const kept = full[0];
  for (const r of ranges) {
    if (r === kept || same(r.weight, 0)) continue;
    notes.push(
      same(r.weight, 1)
        ? `The further correct answer ${r.text} is not kept: a numeric question here has one value and tolerance.`
        : `The answer ${r.text} gave ${percent(r.weight)} in the source; here it earns nothing.`,
    );
  }
  return { kept, notes };
}
