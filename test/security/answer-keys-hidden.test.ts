import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnswerOf, type CallOptions, call, expectProblem, type KnownPath, seedApiKey } from "../support/call";

/**
 * docs/security.md, "Nothing shown before the reveal tells the key": to a credential without
 * quizzes:write, ordering items and matching choices are listed by id; every submission presents
 * them in a uniformly random order of its own, stored at creation; feedback and explanations are
 * part of the key; ids left out of items and choices are random, so the key is stated by
 * structure (correct_order left out, matchings written as pairs).
 */

const RANDOM_ID = /^[a-z0-9]{8}$/;

let reader: string;
let resultsReader: string;
beforeAll(async () => {
  reader = (await seedApiKey(["quizzes:read"], { name: "quiz reader" })).key;
  resultsReader = (await seedApiKey(["submissions:read"], { name: "results reader" })).key;
});

async function ok<P extends KnownPath, const O extends CallOptions = object>(
  path: P,
  options?: O,
  status = 200,
): Promise<AnswerOf<P, O>["json"]> {
  const res = await call(path, options);
  expect(res.status, `${path}: ${res.text}`).toBe(status);
  return res.json;
}

const createQuiz = (questions: unknown[], settings: Record<string, unknown> = {}) =>
  ok("/v1/quizzes", { body: { title: `Keys ${crypto.randomUUID()}`, settings, questions } }, 201);
const createUser = async () =>
  (await ok("/v1/users", { body: { name: "Learner", email: `k-${crypto.randomUUID()}@example.com` } }, 201)).id as string;
const questionsOf = async (quizId: string, auth?: string) =>
  (await ok(`/v1/quizzes/${quizId}/questions`, auth === undefined ? {} : { auth })).questions;
const ids = (list: { id: string }[] | undefined) => list!.map((entry) => entry.id);
const sorted = (values: string[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Four items with ids, listed (and to be put) in `order`. */
const ordering = (order: string[]) => ({
  type: "ordering",
  prompt: "Oldest first.",
  items: order.map((id) => ({ id, text: `Event ${id}` })),
  correct_order: order,
});

describe("listing order independent of the key", () => {
  it("a quizzes:read credential sees ordering items and matching choices sorted by id, the same whatever the key", async () => {
    const keys = [
      ["p", "q", "r", "s"],
      ["s", "q", "p", "r"],
      ["r", "p", "s", "q"],
    ];
    const matching = (choiceOrder: string[]) => ({
      type: "matching",
      prompt: "Capitals.",
      prompts: [
        { id: "fr", text: "France" },
        { id: "it", text: "Italy" },
        { id: "es", text: "Spain" },
      ],
      choices: choiceOrder.map((id) => ({ id, text: `City ${id}` })),
      correct_matches: { fr: choiceOrder[0], it: choiceOrder[1], es: choiceOrder[2] },
    });
    const seen = [];
    for (const key of keys) {
      const quiz = await createQuiz([ordering(key), matching(key)]);
      const [asRead, asWritten] = [await questionsOf(quiz.id, reader), await questionsOf(quiz.id)];
      // The author sees what they wrote; the reader an order that no key changes.
      expect(ids(asWritten[0]!.items)).toEqual(key);
      expect(asWritten[0]!.correct_order).toEqual(key);
      expect(ids(asWritten[1]!.choices)).toEqual(key);
      expect(ids(asRead[0]!.items)).toEqual(["p", "q", "r", "s"]);
      expect(ids(asRead[1]!.choices)).toEqual(["p", "q", "r", "s"]);
      expect(ids(asRead[1]!.prompts)).toEqual(["fr", "it", "es"]);
      seen.push(asRead.map(({ id: _, quiz_id: __, created_at: ___, updated_at: ____, ...q }) => q));
      const one = await ok(`/v1/quizzes/${quiz.id}/questions/${asRead[0]!.id}`, { auth: reader });
      expect(one).toEqual(asRead[0]);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });
});

describe("ids left out, and the key stated by structure", () => {
  it("ordering items and matching choices get random ids (8 of a–z, 0–9, never a, b, …); options, prompts and blanks keep a, b, …", async () => {
    const items = ["Magna Carta", "Printing press", "French Revolution", "Moon landing"].map((text) => ({ text }));
    const quiz = await createQuiz([
      { type: "ordering", prompt: "Oldest first.", items },
      { type: "ordering", prompt: "Oldest first, again.", items },
      {
        type: "matching",
        prompt: "Capitals.",
        prompts: [{ text: "France" }, { text: "Italy" }],
        choices: [{ id: "paris", text: "Paris" }, { id: "rome", text: "Rome" }, { text: "Madrid" }],
        correct_matches: { a: "paris", b: "rome" },
      },
      {
        type: "single_choice",
        prompt: "Capital of France?",
        options: [{ text: "Paris" }, { text: "Lyon" }],
        correct_option_id: "a",
      },
    ]);
    const [first, second, matching, single] = await questionsOf(quiz.id);
    for (const q of [first!, second!]) {
      for (const id of ids(q.items)) expect(id).toMatch(RANDOM_ID);
      expect(new Set(ids(q.items)).size).toBe(4);
      // correct_order left out: the items as listed are the order.
      expect(q.correct_order).toEqual(ids(q.items));
      expect(q.items!.map((i) => i.text)).toEqual(items.map((i) => i.text));
    }
    expect(ids(first!.items)).not.toEqual(ids(second!.items));
    expect(ids(matching!.choices).slice(0, 2)).toEqual(["paris", "rome"]);
    expect(matching!.choices![2]!.id).toMatch(RANDOM_ID);
    expect(ids(matching!.prompts)).toEqual(["a", "b"]);
    expect(ids(single!.options)).toEqual(["a", "b"]);
  });

  it("correct_order given while item ids are left out → 400 naming correct_order", async () => {
    for (const items of [
      [{ text: "1" }, { text: "2" }],
      [{ id: "a", text: "1" }, { text: "2" }],
    ]) {
      const res = await call("/v1/quizzes", {
        body: { title: "Bad", questions: [{ type: "ordering", prompt: "Order.", items, correct_order: ["a", "b"] }] },
      });
      expectProblem(res, 400, "validation_failed");
      expect(res.problem.errors!.map((e) => e.path)).toEqual(["questions[0].correct_order"]);
    }
  });

  it("a matching written as pairs and distractors is stored in the usual form: prompts a, b, …, one random-id choice per text", async () => {
    const quiz = await createQuiz([
      {
        type: "matching",
        prompt: "Which language is spoken?",
        points: 3,
        scoring: "partial",
        pairs: [
          { prompt: "Austria", choice: "German" },
          { prompt: "France", choice: "French" },
          { prompt: "Switzerland", choice: "German" },
        ],
        distractors: ["Dutch"],
      },
    ]);
    const [q] = await questionsOf(quiz.id);
    expect(q).not.toHaveProperty("pairs");
    expect(q!.prompts).toEqual([
      { id: "a", text: "Austria" },
      { id: "b", text: "France" },
      { id: "c", text: "Switzerland" },
    ]);
    expect(q!.choices!.map((c) => c.text)).toEqual(["German", "French", "Dutch"]);
    for (const id of ids(q!.choices)) expect(id).toMatch(RANDOM_ID);
    const [german, french, dutch] = ids(q!.choices) as [string, string, string];
    // Prompts sharing a choice text share the choice.
    expect(q!.correct_matches).toEqual({ a: german, b: french, c: german });

    const user = await createUser();
    const sub = await ok(
      `/v1/quizzes/${quiz.id}/submissions`,
      { body: { user_id: user, answers: [{ question_id: q!.id, response: { a: german, b: dutch, c: german } }] } },
      201,
    );
    const graded = await ok(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
    expect(graded).toMatchObject({ points_earned: 2, points_possible: 3 });
  });

  it.each([
    [
      "pairs beside prompts, choices and correct_matches",
      { pairs: [{ prompt: "A", choice: "1" }], prompts: [{ text: "A" }] },
      ["prompts"],
    ],
    [
      "a distractor that is already a choice",
      {
        pairs: [
          { prompt: "A", choice: "1" },
          { prompt: "B", choice: "2" },
        ],
        distractors: ["3", "2"],
      },
      ["distractors[1]"],
    ],
    [
      "a prompt given twice",
      {
        pairs: [
          { prompt: "A", choice: "1" },
          { prompt: "A", choice: "2" },
        ],
      },
      ["pairs[1].prompt"],
    ],
    [
      "distractors without pairs",
      { prompts: [{ text: "A" }], choices: [{ id: "x", text: "1" }], correct_matches: { a: "x" }, distractors: ["2"] },
      ["distractors"],
    ],
    ["neither form", {}, ["prompts", "choices", "correct_matches"]],
    [
      "a match naming a choice whose id was left out",
      { prompts: [{ text: "A" }], choices: [{ text: "1" }], correct_matches: { a: "a" } },
      ["correct_matches.a"],
    ],
  ])("a matching with %s → 400 naming the field", async (_, fields, paths) => {
    const res = await call("/v1/quizzes", {
      body: { title: "Bad", questions: [{ type: "matching", prompt: "Match.", ...fields }] },
    });
    expectProblem(res, 400, "validation_failed");
    expect(res.problem.errors!.map((e) => e.path)).toEqual(paths.map((p) => `questions[0].${p}`));
  });

  it("POST and PATCH of a question state the key the same ways: pairs replace a matching's key; items without ids and correct_order are the order as listed", async () => {
    const quiz = await createQuiz([ordering(["p", "q", "r", "s"])]);
    const added = await ok(
      `/v1/quizzes/${quiz.id}/questions`,
      { body: { type: "matching", prompt: "Match.", pairs: [{ prompt: "One", choice: "1" }], distractors: ["2"] } },
      201,
    );
    expect(added.choices!.map((c) => c.text)).toEqual(["1", "2"]);
    expect(added.correct_matches).toEqual({ a: added.choices![0]!.id });

    const path = (id: string) => `/v1/quizzes/${quiz.id}/questions/${id}` as const;
    const repaired = await ok(path(added.id), {
      method: "PATCH",
      body: {
        pairs: [
          { prompt: "Two", choice: "2" },
          { prompt: "Three", choice: "3" },
        ],
      },
    });
    expect(repaired.prompts!.map((p) => p.text)).toEqual(["Two", "Three"]);
    expect(repaired.correct_matches).toEqual({ a: repaired.choices![0]!.id, b: repaired.choices![1]!.id });
    expect(repaired.version).toBe(2);

    const [orderingId] = quiz.question_ids as string[];
    const reordered = await ok(path(orderingId!), {
      method: "PATCH",
      body: { items: [{ text: "Last" }, { text: "First" }, { text: "Middle" }] },
    });
    for (const id of ids(reordered.items)) expect(id).toMatch(RANDOM_ID);
    expect(reordered.correct_order).toEqual(ids(reordered.items));
    // With ids, the stored order stays the key unless one is sent.
    const retexted = await ok(path(orderingId!), {
      method: "PATCH",
      body: { items: reordered.items!.map((i) => ({ ...i, text: i.text.toUpperCase() })) },
    });
    expect(retexted.correct_order).toEqual(reordered.correct_order);
    expectProblem(
      await call(path(orderingId!), {
        method: "PATCH",
        body: { items: [{ text: "x" }, { text: "y" }], correct_order: ["a", "b"] },
      }),
      400,
      "validation_failed",
    );
  });
});

describe("every submission presents items and choices in its own random order", () => {
  it("30 submissions of a 4-item ordering quiz: each a permutation stored at creation, not all the key's, not all alike", async () => {
    const quiz = await createQuiz([
      { type: "ordering", prompt: "Oldest first.", items: ["A", "B", "C", "D"].map((text) => ({ text })) },
      {
        type: "matching",
        prompt: "Match.",
        pairs: [
          { prompt: "1", choice: "one" },
          { prompt: "2", choice: "two" },
        ],
        distractors: ["three"],
      },
      { type: "single_choice", prompt: "Pick.", options: [{ text: "x" }, { text: "y" }], correct_option_id: "a" },
    ]);
    const [orderingQ, matchingQ] = await questionsOf(quiz.id);
    const key = orderingQ!.correct_order!.join();
    const orders: string[] = [];
    for (let i = 0; i < 30; i++) {
      const sub = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: await createUser() } }, 201);
      const [ord, match, single] = sub.questions!;
      expect(sorted(ord!.option_order!)).toEqual(sorted(orderingQ!.correct_order!));
      expect(sorted(match!.option_order!)).toEqual(sorted(ids(matchingQ!.choices)));
      // shuffle_options is false: choice options keep their order; items and choices never do.
      expect(single).not.toHaveProperty("option_order");
      orders.push(ord!.option_order!.join());
      // Stored: every read shows the same order.
      const read = (await ok(`/v1/submissions/${sub.id}`)).questions!.map(({ question: _, ...presented }) => presented);
      expect(read).toEqual(sub.questions);
    }
    // Uniform over 24 orders: all 30 the key's has probability 24^-30, all alike 24^-29; the key
    // ten times or more 2e-7; fewer than 6 distinct orders under 2e-16.
    expect(orders.every((o) => o === key)).toBe(false);
    expect(new Set(orders).size).toBeGreaterThanOrEqual(6);
    expect(orders.filter((o) => o === key).length).toBeLessThan(10);
  }, 30_000);
});

describe("feedback and explanation are part of the key", () => {
  const QUESTIONS = [
    {
      type: "single_choice",
      prompt: "Capital of France?",
      options: [{ text: "Paris" }, { text: "Lyon" }],
      correct_option_id: "a",
      feedback: { correct: "Yes: Paris.", incorrect: "No: the answer is Paris." },
      explanation: "Paris has been the capital since 987.",
    },
    {
      type: "ordering",
      prompt: "Smallest first.",
      items: [{ text: "1" }, { text: "2" }, { text: "3" }],
      feedback: { incorrect: "1, 2, 3." },
      explanation: "Count up.",
    },
  ];

  it("hidden from quizzes:read in every question read, whatever the reveal policy; shown to quizzes:write", async () => {
    const quiz = await createQuiz(QUESTIONS, { show_correct_answers: "always" });
    const [asRead, asWritten] = [await questionsOf(quiz.id, reader), await questionsOf(quiz.id)];
    for (const q of asRead) {
      expect(q.feedback).toEqual({});
      expect(q.explanation).toBeNull();
      for (const field of ["correct_option_id", "correct_order"]) expect(q).not.toHaveProperty(field);
      expect(JSON.stringify(q)).not.toMatch(/Paris has been|the answer is Paris|Count up|1, 2, 3\./);
    }
    expect(asWritten.map((q) => [q.feedback, q.explanation])).toEqual(QUESTIONS.map((q) => [q.feedback, q.explanation]));
  });

  it("hidden from results until the reveal policy reveals the key", async () => {
    const quiz = await createQuiz(QUESTIONS, { show_correct_answers: "after_last_attempt", max_attempts: 2 });
    const [, orderingQ] = await questionsOf(quiz.id);
    const user = await createUser();
    const results = async (id: string) => ok(`/v1/submissions/${id}/results`, { auth: resultsReader });
    const attempt = async () => {
      const sub = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user } }, 201);
      await ok(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
      return sub.id as string;
    };
    const first = await attempt();
    const hidden = await results(first);
    for (const answer of hidden.answers) {
      expect(answer).toMatchObject({ feedback: null, explanation: null });
      expect(answer).not.toHaveProperty("correct_answer");
    }
    await attempt();
    const shown = await results(first);
    expect(shown.answers.map((a) => [a.feedback, a.explanation, a.correct_answer])).toEqual([
      ["No: the answer is Paris.", "Paris has been the capital since 987.", "a"],
      ["1, 2, 3.", "Count up.", orderingQ!.correct_order],
    ]);
  });
});

describe("events tell nothing of the key", () => {
  it("question.created carries no key, feedback or explanation, and items by id", async () => {
    const quiz = await createQuiz([
      {
        ...ordering(["s", "r", "q", "p"]),
        feedback: { correct: "Well ordered." },
        explanation: "The key, in words.",
      },
    ]);
    const [questionId] = quiz.question_ids as string[];
    const row = await env.DB.prepare(
      "SELECT data FROM events WHERE type = 'question.created' AND json_extract(data, '$.object.id') = ?",
    )
      .bind(questionId)
      .first<{ data: string }>();
    const { object } = JSON.parse(row!.data);
    expect(object).toEqual((await questionsOf(quiz.id, reader))[0]);
    expect(ids(object.items)).toEqual(["p", "q", "r", "s"]);
    expect(object).not.toHaveProperty("correct_order");
    expect(object).toMatchObject({ feedback: {}, explanation: null });
  });
});

describe("a numeric question's tolerance is part of the key", () => {
  const NUMERIC = { type: "numeric", prompt: "π to two decimals?", correct_value: 3.14, tolerance: 0.005 };
  const keyless = (value: unknown) => {
    const text = JSON.stringify(value);
    expect(text).not.toMatch(/tolerance|correct_value|0\.005/);
  };

  it("hidden from quizzes:read in question reads and from question events; shown to quizzes:write", async () => {
    const quiz = await createQuiz([NUMERIC]);
    const [asRead] = await questionsOf(quiz.id, reader);
    const [asWritten] = await questionsOf(quiz.id);
    expect(asWritten).toMatchObject({ correct_value: 3.14, tolerance: 0.005 });
    expect(asRead).not.toHaveProperty("tolerance");
    keyless(asRead);
    keyless(await ok(`/v1/quizzes/${quiz.id}/questions/${asRead!.id}`, { auth: reader }));
    const row = await env.DB.prepare(
      "SELECT data FROM events WHERE type = 'question.created' AND json_extract(data, '$.object.id') = ?",
    )
      .bind(asRead!.id)
      .first<{ data: string }>();
    // The event's question is the reader's: one list of key fields for both.
    expect(JSON.parse(row!.data).object).toEqual(asRead);
  });

  it.each(["after_last_attempt", "never"])(
    "hidden from the submission and its results under %s until the reveal",
    async (policy) => {
      const quiz = await createQuiz([NUMERIC], { show_correct_answers: policy, max_attempts: 2 });
      const user = await createUser();
      const [question] = await questionsOf(quiz.id);
      const answers = [{ question_id: question!.id, response: 3.1 }];
      const sub = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user, answers } }, 201);
      keyless(sub);
      await ok(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
      keyless(await ok(`/v1/submissions/${sub.id}`, { auth: resultsReader }));
      keyless(await ok(`/v1/submissions/${sub.id}/results`, { auth: resultsReader }));
    },
  );
});
