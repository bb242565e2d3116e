/**
 * Whether an imported QTI item grades like its source: the correct response and a set of right,
 * wrong and partly right responses are scored by the item's own response processing (qti-rp.ts)
 * and by the service's grading (domain/grading.ts), as shares of each one's maximum. Small lists
 * are probed exhaustively (every subset of ≤ 10 options, every order of ≤ 5 items).
 */
import { scoreAnswer } from "../domain/grading";
import type { GradableQuestion } from "../domain/questions";
import type { QuestionInput } from "./types";

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

function subsets<T>(list: T[]): T[][] {
  if (list.length > 10) return [[], ...list.map((x) => [x]), list];
  return Array.from({ length: 2 ** list.length }, (_, mask) => list.filter((_, i) => mask & (1 << i)));
}

function permutations<T>(list: T[]): T[][] {
  if (list.length <= 1) return [list];
  if (list.length > 5) {
    const swaps = list.slice(1).map((_, i) => list.map((x, j) => (j === i ? list[i + 1] : j === i + 1 ? list[i] : x) as T));
    return [list, [...list].reverse(), [...list.slice(1), list[0] as T], ...swaps];
  }
  return list.flatMap((x, i) => permutations([...list.slice(0, i), ...list.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Responses worth comparing for `q`, the correct one first. */
export function probes(q: GradableQuestion): unknown[] {
  switch (q.type) {
    case "single_choice":
      return [q.correct_option_id, ...q.options.map((o) => o.id)];
    case "multiple_choice":
      return [q.correct_option_ids, ...subsets(q.options.map((o) => o.id))];
    case "true_false":
      return [q.correct, !q.correct];
    case "ordering":
      return [q.correct_order, ...permutations(q.correct_order)];
    case "matching": {
      const key = q.correct_matches;
      const out: unknown[] = [key, {}];
      for (const p of q.prompts)
        for (const c of q.choices) {
          out.push({ ...key, [p.id]: c.id });
          out.push({ [p.id]: c.id });
        }
      return out;
    }
    case "short_text":
      return [q.accepted_answers[0], ...q.accepted_answers, "", "\u2063not an answer"];
    case "numeric": {
      const { correct_value: v, tolerance: t } = q;
      const d = Math.max(Math.abs(v), t, 1) * 1e-6;
      return [v, v + t, v - t, v + t + d, v - t - d, v + 1 + 2 * t, v - 1 - 2 * t];
    }
    case "fill_in_blanks": {
      const right = Object.fromEntries(q.blanks.map((b) => [b.id, b.accepted_answers[0] ?? ""]));
      const out: unknown[] = [right, {}];
      for (const b of q.blanks) {
        out.push({ ...right, [b.id]: "\u2063not an answer" }, { [b.id]: right[b.id] });
        for (const a of b.accepted_answers) out.push({ ...right, [b.id]: a });
      }
      return out;
    }
    case "essay":
      return [];
  }
}

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
