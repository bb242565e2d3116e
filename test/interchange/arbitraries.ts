import fc from "fast-check";
import type { QuizQuestion } from "../../src/interchange";

/** Words with the characters each format must escape (GIFT's ~=#:, XML's <&"'), never "true"/"false" alone. */
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9#~=:&<'"]{0,7}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
/** Texts unique in their list: a phrase and its position. */
const texts = (min: number, max: number) =>
  fc.array(phrase, { minLength: min, maxLength: max }).map((list) => list.map((t, i) => `${t} ${i + 1}`));
/** Ids as the API makes them: a, b, … or 8 random [a-z0-9] (which may start with a digit). */
const ids = (n: number) =>
  fc.oneof(
    fc.constant(Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i))),
    fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{8}$/), { minLength: n, maxLength: n }),
  );
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const scoring = fc.constantFrom("all_or_nothing" as const, "partial" as const);

const common = fc.record({
  id: fc.stringMatching(/^qst_[0-9a-z]{26}$/),
  prompt: fc.tuple(phrase, optional(phrase)).map(([a, b]) => (b ? `${a}\n${b}` : a)),
  points: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constantFrom(0.5, 2.5, 1.25)),
  feedback: fc.constant({}),
  explanation: fc.option(phrase, { nil: null }),
  title: optional(phrase),
  tags: optional(
    fc.uniqueArray(
      word.map((w) => w.replace(/[^A-Za-z0-9]/g, "") || "tag"),
      { maxLength: 3 },
    ),
  ),
});

const listed = (n: [number, number]) =>
  texts(n[0], n[1]).chain((t) => ids(t.length).map((i) => t.map((text, k) => ({ id: i[k] ?? `x${k}`, text }))));

const choiceArb = fc
  .tuple(common, listed([2, 6]), fc.array(optional(phrase), { minLength: 6, maxLength: 6 }), scoring, fc.boolean())
  .chain(([c, options, feedback, s, single]) => {
    const withFeedback = options.map((o, i) => (feedback[i] ? { ...o, feedback: feedback[i] } : o));
    return single
      ? fc
          .constantFrom(...options.map((o) => o.id))
          .map((id): QuizQuestion => ({ ...c, type: "single_choice", options: withFeedback, correct_option_id: id }))
      : fc
          .subarray(
            options.map((o) => o.id),
            { minLength: 1 },
          )
          .map(
            (right): QuizQuestion => ({
              ...c,
              type: "multiple_choice",
              options: withFeedback,
              correct_option_ids: right,
              scoring: s,
            }),
          );
  });

const numberArb = fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100);

const others: fc.Arbitrary<QuizQuestion>[] = [
  fc.tuple(common, fc.boolean()).map(([c, correct]): QuizQuestion => ({ ...c, type: "true_false", correct })),
  fc
    .tuple(common, texts(1, 3), fc.boolean())
    .map(([c, answers, cs]): QuizQuestion => ({ ...c, type: "short_text", accepted_answers: answers, case_sensitive: cs })),
  fc
    .tuple(
      common,
      numberArb,
      fc.integer({ min: 0, max: 500 }).map((n) => n / 100),
    )
    .map(([c, v, t]): QuizQuestion => ({ ...c, type: "numeric", correct_value: v, tolerance: t })),
  fc.tuple(common, listed([2, 5]), scoring).chain(([c, items, s]) =>
    fc
      .shuffledSubarray(
        items.map((i) => i.id),
        { minLength: items.length, maxLength: items.length },
      )
      .map((order): QuizQuestion => ({ ...c, type: "ordering", items, correct_order: order, scoring: s })),
  ),
  fc.tuple(common, listed([1, 4]), listed([1, 5]), scoring).chain(([c, prompts, choices, s]) =>
    fc.array(fc.constantFrom(...choices.map((x) => x.id)), { minLength: prompts.length, maxLength: prompts.length }).map(
      (picked): QuizQuestion => ({
        ...c,
        type: "matching",
        prompts,
        choices: choices.map((x) => ({ ...x, text: `to ${x.text}` })),
        correct_matches: Object.fromEntries(prompts.map((p, i) => [p.id, picked[i] ?? ""])),
        scoring: s,
      }),
    ),
  ),
  fc
    .tuple(
      common,
      fc.array(fc.tuple(phrase, texts(1, 2), fc.boolean()), { minLength: 1, maxLength: 3 }),
      phrase,
      optional(phrase),
      scoring,
    )
    .chain(([c, parts, lead, tail, s]) =>
      ids(parts.length).map(
        (blankIds): QuizQuestion => ({
          ...c,
          type: "fill_in_blanks",
          text: `${lead} ${parts.map(([before], i) => `${i > 0 ? `${before} ` : ""}{{${blankIds[i]}}}`).join(" ")}${tail ? ` ${tail}` : ""}`,
          blanks: parts.map(([, answers, cs], i) => ({
            id: blankIds[i] ?? `b${i}`,
            accepted_answers: answers,
            case_sensitive: cs,
          })),
          scoring: s,
        }),
      ),
    ),
  fc
    .tuple(common, optional(phrase), optional(fc.integer({ min: 1, max: 500 })))
    .map(([c, rubric, maxWords]): QuizQuestion => ({ ...c, type: "essay", rubric: rubric ?? null, max_words: maxWords ?? null })),
];

export const quizQuestionArb: fc.Arbitrary<QuizQuestion> = fc.oneof(choiceArb, ...others);
