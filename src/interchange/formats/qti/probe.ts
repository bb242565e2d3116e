/**
 * Whether an imported QTI item grades like its source: the correct response and a set of right,
 * wrong and partly right responses are scored by the item's own response processing (rp.ts)
 * and by the service's grading (domain/grading.ts), as shares of each one's maximum. Small lists
 * are probed exhaustively (every subset of ≤ 7 options, every order of ≤ 5 items), longer ones by
 * the responses next to the key (each option alone, left out, added to or taken from the key); an
 * item is probed with at most BUDGET.probesPerItem responses.
 */
import { scoreAnswer } from "../../../domain/grading";
import { byType, type GradableQuestion, type PerType } from "../../../domain/question-types";
import { BUDGET } from "../../budget";
import type { QuestionInput } from "../../types";

/** The question in the grading engine's terms, with `points` and the defaults the API fills in. */
export function gradable(q: QuestionInput, points = q.points ?? 1): GradableQuestion {
  const { prompt: _p, title: _t, tags: _g, ...rest } = q;
  return { id: "q", feedback: {}, explanation: null, ...rest, points } as GradableQuestion;
}

/** The service's share (0–1) of full points for a response. */
export function serviceShare(q: GradableQuestion, response: unknown): number {
  const { earned, possible } = scoreAnswer(q, response);
  return possible === 0 ? 0 : earned / possible;
}

/** Every subset up to 7 options (128); past that, the sets next to the key: O(n) sets, none built past the cap. */
function* subsets(list: string[], key: string[]): Generator<string[]> {
  if (list.length <= 7) {
    for (let mask = 0; mask < 2 ** list.length; mask++) yield list.filter((_, i) => mask & (1 << i));
    return;
  }
  yield [];
  yield list;
  for (const x of list) yield [x];
  for (const x of list) yield key.includes(x) ? key.filter((k) => k !== x) : [...key, x];
  for (const x of list) yield list.filter((y) => y !== x);
}

/** Every order up to 5 items (120); past that, the reverse, a rotation and each swap of neighbours. */
function* permutations<T>(list: T[]): Generator<T[]> {
  if (list.length > 5) {
    yield list;
    yield [...list].reverse();
    yield [...list.slice(1), list[0] as T];
    for (let i = 0; i + 1 < list.length; i++) yield list.map((x, j) => (j === i ? list[i + 1] : j === i + 1 ? list[i] : x) as T);
    return;
  }
  if (list.length <= 1) {
    yield list;
    return;
  }
  for (const [i, x] of list.entries()) for (const p of permutations([...list.slice(0, i), ...list.slice(i + 1)])) yield [x, ...p];
}

/** Responses worth comparing for `q`, the correct one first, at most BUDGET.probesPerItem of them. */
export function probes(q: GradableQuestion): unknown[] {
  const out: unknown[] = [];
  for (const response of byType(CANDIDATES, q)) {
    if (out.length >= BUDGET.probesPerItem) break;
    out.push(response);
  }
  return out;
}

/** Responses worth comparing for each type, the correct one first. */
const CANDIDATES: PerType<GradableQuestion, Iterable<unknown>> = {
  *single_choice(q) {
    yield q.correct_option_id;
    yield* q.options.map((o) => o.id);
  },
  *multiple_choice(q) {
    yield q.correct_option_ids;
    yield* subsets(
      q.options.map((o) => o.id),
      q.correct_option_ids,
    );
  },
  true_false: (q) => [q.correct, !q.correct],
  *ordering(q) {
    yield q.correct_order;
    yield* permutations(q.correct_order);
  },
  *matching(q) {
    const key = q.correct_matches;
    yield* [key, {}];
    for (const p of q.prompts)
      for (const c of q.choices) {
        yield { ...key, [p.id]: c.id };
        yield { [p.id]: c.id };
      }
  },
  short_text: (q) => [q.accepted_answers[0], ...q.accepted_answers, "", "\u2063not an answer"],
  numeric({ correct_value: v, tolerance: t }) {
    const d = Math.max(Math.abs(v), t, 1) * 1e-6;
    return [v, v + t, v - t, v + t + d, v - t - d, v + 1 + 2 * t, v - 1 - 2 * t];
  },
  *fill_in_blanks(q) {
    const right = Object.fromEntries(q.blanks.map((b) => [b.id, b.accepted_answers[0] ?? ""]));
    yield* [right, {}];
    for (const b of q.blanks) {
      yield* [{ ...right, [b.id]: "\u2063not an answer" }, { [b.id]: right[b.id] }];
      for (const a of b.accepted_answers) yield { ...right, [b.id]: a };
    }
  },
  essay: () => [],
};

export interface Mismatch {
  response: unknown;
  source: number;
  here: number;
}

/** The first probe on which the source's share and the service's differ, if any. */
export function firstMismatch(q: GradableQuestion, sourceShare: (response: unknown) => number): Mismatch | undefined {
  for (const response of probes(q)) {
    const source = sourceShare(response);
    const here = serviceShare(q, response);
    if (Math.abs(source - here) > 2e-6) return { response, source, here };
  }
  return undefined;
}

export const describeMismatch = (m: Mismatch) =>
  `Scores differ for some responses: ${JSON.stringify(m.response)} earns ${Math.round(m.source * 1e4) / 100}% of the points in the source and ${Math.round(m.here * 1e4) / 100}% here.`;
