import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isResponseValidFor } from "../../src/domain/answers";
import { pickFeedback, pointsSentence, scoreSubmission } from "../../src/domain/grading";
import type { GradableQuestion, MultipleChoiceQuestion } from "../../src/domain/question-types";
import { normalizeText } from "../../src/domain/question-types/rules";
import type { FeedbackBand } from "../../src/domain/quiz-settings";

const RUN = { seed: 42, numRuns: 300 } as const;

// Built from integers so every value has at most 6 decimals, as validation guarantees.
const pointsArb = fc.oneof(
  fc.integer({ min: 1, max: 100 }),
  fc.integer({ min: 1, max: 1e9 }).map((m) => m / 1e6),
);
const decimalArb = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.integer({ min: 0, max: 6 })).map(([n, k]) => n / 10 ** k);
const baseArb = fc.record({
  id: fc.constant("q"),
  points: pointsArb,
  feedback: fc.record({ correct: fc.string(), incorrect: fc.string() }, { requiredKeys: [] }),
  explanation: fc.option(fc.string(), { nil: null }),
});
const optionsArb = fc
  .integer({ min: 1, max: 6 })
  .map((n) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, text: `Option ${i}` })));
const mcArb = (scoring: fc.Arbitrary<"all_or_nothing" | "partial">): fc.Arbitrary<MultipleChoiceQuestion> =>
  fc.tuple(baseArb, optionsArb, scoring).chain(([b, options, s]) =>
    fc
      .subarray(
        options.map((o) => o.id),
        { minLength: 1 },
      )
      .map((ids) => ({
        ...b,
        type: "multiple_choice" as const,
        options,
        correct_option_ids: ids,
        scoring: s,
      })),
  );

const questionArb: fc.Arbitrary<GradableQuestion> = fc.oneof(
  fc
    .tuple(baseArb, optionsArb)
    .chain(([b, options]) =>
      fc.constantFrom(...options).map((o) => ({ ...b, type: "single_choice" as const, options, correct_option_id: o.id })),
    ),
  mcArb(fc.constantFrom("all_or_nothing", "partial")),
  fc.tuple(baseArb, fc.boolean()).map(([b, correct]) => ({ ...b, type: "true_false" as const, correct })),
  fc.tuple(baseArb, fc.array(fc.string(), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([b, acc, cs]) => ({
    ...b,
    type: "short_text" as const,
    accepted_answers: acc,
    case_sensitive: cs,
  })),
  fc.tuple(baseArb, decimalArb(-1e9, 1e9), decimalArb(0, 1e6)).map(([b, v, t]) => ({
    ...b,
    type: "numeric" as const,
    correct_value: v,
    tolerance: t,
  })),
  fc.tuple(baseArb, optionsArb, fc.constantFrom("all_or_nothing" as const, "partial" as const)).chain(([b, items, scoring]) =>
    fc
      .shuffledSubarray(
        items.map((i) => i.id),
        { minLength: items.length, maxLength: items.length },
      )
      .map((order) => ({ ...b, type: "ordering" as const, items, correct_order: order, scoring })),
  ),
  fc
    .tuple(
      baseArb,
      fc.array(
        fc.record({ accepted_answers: fc.array(fc.string(), { minLength: 1, maxLength: 3 }), case_sensitive: fc.boolean() }),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
      fc.constantFrom("all_or_nothing" as const, "partial" as const),
    )
    .map(([b, blanks, scoring]) => ({
      ...b,
      type: "fill_in_blanks" as const,
      text: blanks.map((_, i) => `{{b${i}}}`).join(" "),
      blanks: blanks.map((blank, i) => ({ ...blank, id: `b${i}` })),
      scoring,
    })),
  fc
    .tuple(baseArb, optionsArb, optionsArb, fc.constantFrom("all_or_nothing" as const, "partial" as const))
    .chain(([b, prompts, choices, scoring]) =>
      fc
        .array(fc.constantFrom(...choices.map((c) => c.id)), { minLength: prompts.length, maxLength: prompts.length })
        .map((picks) => ({
          ...b,
          type: "matching" as const,
          prompts,
          choices,
          correct_matches: Object.fromEntries(prompts.map((p, i) => [p.id, picks[i]!])),
          scoring,
        })),
    ),
);
const questionsArb = (minLength = 0) =>
  fc.array(questionArb, { minLength, maxLength: 8 }).map((qs) => qs.map((q, i) => ({ ...q, id: `q${i}` })));

// Mostly well-typed (often right) responses, sometimes garbage of any shape.
function responseArb(q: GradableQuestion): fc.Arbitrary<unknown> {
  const ids = ("options" in q ? q.options.map((o) => o.id) : []).concat("ghost");
  const typed: fc.Arbitrary<unknown> = {
    single_choice: fc.constantFrom(...ids),
    multiple_choice: fc.array(fc.constantFrom(...ids), { maxLength: 8 }),
    true_false: fc.boolean(),
    short_text: q.type === "short_text" ? fc.oneof(fc.constantFrom(...q.accepted_answers), fc.string()) : fc.string(),
    numeric: q.type === "numeric" ? fc.oneof(fc.constant(q.correct_value), fc.double()) : fc.double(),
    ordering:
      q.type === "ordering"
        ? fc.oneof(fc.constant(q.correct_order), fc.shuffledSubarray(q.correct_order, { minLength: q.correct_order.length }))
        : fc.constant([]),
    essay: fc.string(),
    fill_in_blanks:
      q.type === "fill_in_blanks"
        ? fc.dictionary(
            fc.constantFrom(...q.blanks.map((b) => b.id)),
            fc.oneof(fc.constantFrom(...q.blanks.flatMap((b) => b.accepted_answers)), fc.string()),
          )
        : fc.constant({}),
    matching:
      q.type === "matching"
        ? fc.dictionary(fc.constantFrom(...q.prompts.map((p) => p.id)), fc.constantFrom(...q.choices.map((c) => c.id)))
        : fc.constant({}),
  }[q.type];
  return fc.oneof({ arbitrary: typed, weight: 4 }, { arbitrary: fc.anything(), weight: 1 });
}

const bandsArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 10000 }), { maxLength: 6 })
  .map((mins) => mins.map((m, i): FeedbackBand => ({ min_score: m / 100, message: `band${i}` })));

const keyOf = (type: string, correctAnswer: unknown): unknown =>
  type === "short_text"
    ? (correctAnswer as string[])[0]
    : type === "numeric"
      ? (correctAnswer as { value: number }).value
      : type === "fill_in_blanks"
        ? Object.fromEntries(Object.entries(correctAnswer as Record<string, string[]>).map(([id, accepted]) => [id, accepted[0]]))
        : correctAnswer;
const single = (q: GradableQuestion, response: unknown) =>
  scoreSubmission([q], response === undefined ? [] : [{ question_id: q.id, response }], []).answers[0]!;
const sumMicro = (qs: GradableQuestion[]) => qs.reduce((s, q) => s + Math.round(q.points * 1e6), 0);

describe("gradeSubmission invariants", () => {
  it("keeps score in 0–100 with ≤2 decimals and sums points exactly", () => {
    const caseArb = questionsArb().chain((qs) =>
      fc.tuple(
        fc.constant(qs),
        fc.tuple(...qs.map((q) => fc.option(responseArb(q), { nil: undefined }))),
        fc.array(fc.record({ question_id: fc.constantFrom("deleted", "q0"), response: fc.anything() }), { maxLength: 2 }),
        bandsArb,
      ),
    );
    fc.assert(
      fc.property(caseArb, ([qs, responses, extra, bands]) => {
        const answers = [
          ...extra,
          ...qs.flatMap((q, i) => (responses[i] === undefined ? [] : [{ question_id: q.id, response: responses[i] }])),
        ];
        const r = scoreSubmission(qs, answers, bands);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(100);
        expect(Math.round(r.score * 100) / 100).toBe(r.score);
        expect(r.points_earned).toBeLessThanOrEqual(r.points_possible);
        expect(r.points_possible).toBe(sumMicro(qs) / 1e6);
        expect(r.answers.map((a) => a.question_id)).toEqual(qs.map((q) => q.id));
        if (r.points_possible > 0)
          expect(Math.abs(r.score - (100 * r.points_earned) / r.points_possible)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(r.feedback).toBe(pickFeedback(r.score, bands) ?? pointsSentence(r.points_earned, r.points_possible, r.score));
        r.answers.forEach((a, i) => {
          expect(a.points_earned).toBeLessThanOrEqual(a.points_possible);
          if (!isResponseValidFor(qs[i]!, a.response)) expect(a.points_earned).toBe(0);
        });
      }),
      RUN,
    );
  });

  it("answering with the key gives 100 and full points", () => {
    fc.assert(
      fc.property(questionsArb(1), (qs) => {
        const keys = scoreSubmission(qs, [], []).answers.map((a) => ({
          question_id: a.question_id,
          response: keyOf(a.type, a.correct_answer),
        }));
        const r = scoreSubmission(qs, keys, []);
        expect(r.score).toBe(100);
        expect(r.points_earned).toBe(r.points_possible);
        r.answers.forEach((a, i) => {
          expect(a.correct).toBe(true);
          expect(a.feedback).toBe(qs[i]!.feedback.correct ?? null);
        });
      }),
      RUN,
    );
  });

  it("unanswered questions earn 0 and get the incorrect feedback", () => {
    fc.assert(
      fc.property(questionsArb(), bandsArb, (qs, bands) => {
        const r = scoreSubmission(qs, [{ question_id: "deleted", response: true }], bands);
        expect(r.points_earned).toBe(0);
        expect(r.score).toBe(0);
        expect(r.feedback).toBe(pickFeedback(0, bands) ?? pointsSentence(0, r.points_possible, 0));
        r.answers.forEach((a, i) => {
          expect(a).toMatchObject({ response: null, correct: false, points_earned: 0 });
          expect(a.feedback).toBe(qs[i]!.feedback.incorrect ?? null);
        });
      }),
      RUN,
    );
  });

  it("sums points without float drift and rounds the score half up", () => {
    const tf = (id: string, points: number): GradableQuestion => ({
      id,
      type: "true_false",
      points,
      feedback: {},
      correct: true,
    });
    const yes = (...ids: string[]) => ids.map((id) => ({ question_id: id, response: true }));
    expect(scoreSubmission([tf("a", 0.1), tf("b", 0.2)], yes("a", "b"), [])).toMatchObject({
      points_possible: 0.3,
      points_earned: 0.3,
      score: 100,
    });
    expect(scoreSubmission([tf("a", 0.1), tf("b", 0.1), tf("c", 0.1)], [], []).points_possible).toBe(0.3);
    expect(scoreSubmission([tf("a", 1), tf("b", 2)], yes("a"), []).score).toBe(33.33);
    expect(scoreSubmission([tf("a", 2), tf("b", 1)], yes("a"), []).score).toBe(66.67);
    expect(scoreSubmission([tf("a", 201), tf("b", 19799)], yes("a"), []).score).toBe(1.01); // 1.005 %
    expect(scoreSubmission([tf("a", 1), tf("b", 799)], yes("a"), []).score).toBe(0.13); // 0.125 %
    expect(scoreSubmission([], [], [{ min_score: 0, message: "x" }])).toMatchObject({ score: 0, feedback: "x" });
  });

  it("last answer for a question wins", () => {
    const q: GradableQuestion = { id: "a", type: "true_false", points: 1, feedback: {}, correct: true };
    const r = scoreSubmission(
      [q],
      [
        { question_id: "a", response: true },
        { question_id: "a", response: false },
      ],
      [],
    );
    expect(r.answers[0]).toMatchObject({ response: false, correct: false });
  });
});

describe("multiple choice", () => {
  const caseArb = mcArb(fc.constantFrom("all_or_nothing", "partial")).chain((q) =>
    fc.tuple(fc.constant(q), fc.subarray([...q.options.map((o) => o.id), "ghost1", "ghost2"])),
  );

  it("ignores order and duplicates in the response", () => {
    const arb = caseArb.chain(([q, resp]) =>
      fc.tuple(fc.constant(q), fc.constant(resp), fc.shuffledSubarray(resp, { minLength: resp.length }), fc.subarray(resp)),
    );
    fc.assert(
      fc.property(arb, ([q, resp, shuffled, dups]) => {
        const a = single(q, resp);
        const b = single(q, [...shuffled, ...dups]);
        expect(b.points_earned).toBe(a.points_earned);
        expect(b.correct).toBe(a.correct);
      }),
      RUN,
    );
  });

  it("partial credit is points × max(0, right − wrong) / |correct|", () => {
    fc.assert(
      fc.property(caseArb, ([q, resp]) => {
        const key = new Set(q.correct_option_ids);
        const right = resp.filter((id) => key.has(id)).length;
        const wrong = resp.length - right;
        const exact = wrong === 0 && right === key.size;
        const a = single(q, resp);
        expect(a.correct).toBe(exact);
        const expected =
          q.scoring === "partial" ? (q.points * 1e6 * Math.max(0, right - wrong)) / key.size : exact ? q.points * 1e6 : 0;
        expect(Math.abs(a.points_earned * 1e6 - expected)).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(a.correct_answer).toEqual([...q.correct_option_ids].sort());
      }),
      RUN,
    );
  });

  it("rounds a partial share half up to the micro-point", () => {
    const q = (points: number, n: number): GradableQuestion => ({
      id: "m",
      type: "multiple_choice",
      points,
      feedback: {},
      scoring: "partial",
      options: ["a", "b", "c"].map((id) => ({ id, text: id })),
      correct_option_ids: ["a", "b", "c"].slice(0, n),
    });
    expect(single(q(1, 3), ["a"]).points_earned).toBe(0.333333);
    expect(single(q(0.000001, 2), ["a"]).points_earned).toBe(0.000001);
    expect(single(q(1, 2), ["a", "c"]).points_earned).toBe(0);
  });
});

describe("short text", () => {
  const chars = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789éÉ"];
  const answerArb = fc
    .array(
      fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 6 }).map((w) => w.join("")),
      { minLength: 1, maxLength: 4 },
    )
    .map((ws) => ws.join(" "));
  const ws = (minLength: number) =>
    fc
      .array(fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\u202f"), { minLength, maxLength: 3 })
      .map((a) => a.join(""));
  const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  // NFKC turns full-width ASCII back into ASCII and composes e + U+0301 into é.
  const compat = (c: string) => (/[A-Za-z0-9]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c.normalize("NFD"));
  const variantArb = answerArb.chain((answer) =>
    fc
      .tuple(
        fc.constant(answer),
        ws(0),
        ws(0),
        fc.array(fc.tuple(fc.nat(2), ws(1)), { minLength: answer.length, maxLength: answer.length }),
      )
      .map(([a, lead, trail, picks]) => {
        const body = [...a].map((c, i) => {
          const [how, space] = picks[i]!;
          return c === " " ? space : how === 0 ? c : how === 1 ? swapCase(c) : compat(c);
        });
        return [a, lead + body.join("") + trail] as const;
      }),
  );
  const st = (answers: string[], cs: boolean): GradableQuestion => ({
    id: "s",
    type: "short_text",
    points: 1,
    feedback: {},
    accepted_answers: answers,
    case_sensitive: cs,
  });

  it("accepts case/whitespace/NFKC variants when case-insensitive", () => {
    fc.assert(
      fc.property(variantArb, fc.string(), ([answer, variant], other) => {
        expect(normalizeText(variant, false)).toBe(normalizeText(answer, false));
        expect(single(st([other, answer], false), variant).correct).toBe(true);
      }),
      RUN,
    );
  });

  it("rejects a case-changed answer when case-sensitive", () => {
    fc.assert(
      fc.property(answerArb, (answer) => {
        const changed = [...answer].map(swapCase).join("");
        fc.pre(changed !== answer);
        expect(single(st([answer], true), changed).correct).toBe(false);
        expect(single(st([answer], true), ` ${answer}\u3000`).correct).toBe(true);
      }),
      RUN,
    );
  });
});

describe("numeric", () => {
  const nq = (v: number, t: number): GradableQuestion => ({
    id: "n",
    type: "numeric",
    points: 1,
    feedback: {},
    correct_value: v,
    tolerance: t,
  });

  it("handles float edges of the tolerance", () => {
    for (const [v, t, r, ok] of [
      [0.3, 0.1, 0.4, true],
      [0.3, 0.1, 0.2, true],
      [1.1, 0.2, 1.3, true],
      [0.3, 0.1, 0.400001, false],
      [100, 0, 100, true],
      [100, 0, 100.0001, false],
    ] as const) {
      expect(single(nq(v, t), r).correct).toBe(ok);
    }
    expect(single(nq(0.3, 0.1), Number.NaN).correct).toBe(false);
  });

  it("accepts exactly ±tolerance and rejects just beyond it", () => {
    fc.assert(
      fc.property(decimalArb(-1e9, 1e9), decimalArb(0, 1e6), (v, t) => {
        const beyond = t + 1e-6 * Math.max(1, Math.abs(v), t);
        expect(single(nq(v, t), v + t).correct).toBe(true);
        expect(single(nq(v, t), v - t).correct).toBe(true);
        expect(single(nq(v, t), v + beyond).correct).toBe(false);
        expect(single(nq(v, t), v - beyond).correct).toBe(false);
      }),
      RUN,
    );
  });
});

describe("pickFeedback", () => {
  it("picks the band with the highest min_score ≤ score", () => {
    fc.assert(
      fc.property(bandsArb, fc.integer({ min: 0, max: 10000 }), (bands, s) => {
        const score = s / 100;
        const eligible = bands.filter((b) => b.min_score <= score).sort((a, b) => b.min_score - a.min_score);
        expect(pickFeedback(score, bands)).toBe(eligible[0]?.message ?? null);
      }),
      RUN,
    );
  });
});
