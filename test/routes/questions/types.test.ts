import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../../support/item-analysis-reference";
import { ids } from "../../support/question-types";

const ORDERING = {
  type: "ordering",
  prompt: "Smallest first.",
  points: 4,
  items: [
    { id: "a", text: "1" },
    { id: "b", text: "2" },
    { id: "c", text: "3" },
    { id: "d", text: "4" },
  ],
  correct_order: ["a", "b", "c", "d"],
  scoring: "partial",
};
const MATCHING = {
  type: "matching",
  prompt: "Capitals.",
  points: 3,
  prompts: [
    { id: "fr", text: "France" },
    { id: "it", text: "Italy" },
    { id: "es", text: "Spain" },
  ],
  choices: [
    { id: "paris", text: "Paris" },
    { id: "rome", text: "Rome" },
    { id: "madrid", text: "Madrid" },
  ],
  correct_matches: { fr: "paris", it: "rome", es: "madrid" },
};

async function gradedWith(questions: unknown[], responses: unknown[]) {
  const quiz = await call("/v1/quizzes", { body: { title: "Types", questions } });
  expect(quiz.status, quiz.text).toBe(201);
  const user = await call("/v1/users", { body: { name: "T", email: `${crypto.randomUUID()}@example.com` } });
  const questionIds = quiz.json.question_ids as string[];
  const answers = questionIds.map((question_id, i) => ({ question_id, response: responses[i] }));
  const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: user.json.id, answers } });
  expect(sub.status, sub.text).toBe(201);
  const graded = await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" });
  expect(graded.status, graded.text).toBe(200);
  return { quizId: quiz.json.id as string, questionIds, submissionId: sub.json.id as string, graded: graded.json };
}

describe("ordering and matching through the API", () => {
  it("hand-computed points: ordering partial 2 of 4 in place → 2 of 4 points; matching all_or_nothing 2 of 3 → 0; partial → 2", async () => {
    const { submissionId, graded } = await gradedWith(
      [ORDERING, MATCHING, { ...MATCHING, scoring: "partial" }],
      [["a", "b", "d", "c"], { fr: "paris", it: "rome", es: "rome" }, { fr: "paris", it: "rome" }],
    );
    expect(graded).toMatchObject({ points_earned: 4, points_possible: 10, score: 40 });
    const results = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(results.answers.map((a) => [a.type, a.points_earned, a.correct])).toEqual([
      ["ordering", 2, false],
      ["matching", 0, false],
      ["matching", 2, false],
    ]);
    expect(results.answers[0]!.correct_answer).toEqual(["a", "b", "c", "d"]);
    expect(results.answers[1]!.correct_answer).toEqual({ fr: "paris", it: "rome", es: "madrid" });
  });

  it("the key is hidden from a credential that may not see keys", async () => {
    const quiz = await call("/v1/quizzes", { body: { title: "Hidden", questions: [ORDERING, MATCHING] } });
    const { key } = await seedApiKey(["quizzes:read"]);
    const questions = (await call(`/v1/quizzes/${quiz.json.id}/questions`, { auth: key })).json.questions;
    expect(questions[0]!.items!.map((i) => i.id)).toEqual(["a", "b", "c", "d"]);
    expect(questions[0]).not.toHaveProperty("correct_order");
    expect(questions[1]).not.toHaveProperty("correct_matches");
    expect(questions[1]!.prompts).toHaveLength(3);
  });

  it.each([
    ["an order that is not a permutation", { ...ORDERING, correct_order: ["a", "b", "c"] }, "correct_order"],
    ["an order naming an unknown item", { ...ORDERING, correct_order: ["a", "b", "c", "z"] }, "correct_order[3]"],
    ["an order placing an item twice", { ...ORDERING, correct_order: ["a", "b", "c", "c"] }, "correct_order[3]"],
    [
      "duplicate item ids",
      {
        ...ORDERING,
        items: [
          { id: "x", text: "1" },
          { id: "x", text: "2" },
        ],
        correct_order: ["x", "x"],
      },
      "items[1].id",
    ],
    [
      "a match naming an unknown prompt",
      { ...MATCHING, correct_matches: { ...MATCHING.correct_matches, de: "paris" } },
      "correct_matches.de",
    ],
    [
      "a match naming an unknown choice",
      { ...MATCHING, correct_matches: { ...MATCHING.correct_matches, es: "lisbon" } },
      "correct_matches.es",
    ],
    ["a prompt without a match", { ...MATCHING, correct_matches: { fr: "paris", it: "rome" } }, "correct_matches"],
    ["an unknown scoring", { ...MATCHING, scoring: "most" }, "scoring"],
  ])("a definition with %s → 400 naming %s", async (_, question, path) => {
    const res = await call("/v1/quizzes", { body: { title: "Bad", questions: [question] } });
    expectProblem(res, 400, "validation_failed");
    expect(res.problem.errors!.map((e) => e.path)).toContain(`questions[0].${path}`);
  });

  it.each([
    ["ordering", ORDERING, ["a", "b", "c"]],
    ["ordering", ORDERING, ["a", "b", "c", "c"]],
    ["ordering", ORDERING, "abcd"],
    ["matching", MATCHING, { de: "paris" }],
    ["matching", MATCHING, { fr: "lisbon" }],
    ["matching", MATCHING, ["paris"]],
    ["matching", MATCHING, { fr: 1 }],
  ])("a %s response of the wrong shape (%j) → 400 naming it", async (_, question, response) => {
    const quiz = await call("/v1/quizzes", { body: { title: "Responses", questions: [question] } });
    const user = await call("/v1/users", { body: { name: "R", email: `${crypto.randomUUID()}@example.com` } });
    const res = await call(`/v1/quizzes/${quiz.json.id}/submissions`, {
      body: { user_id: user.json.id, answers: [{ question_id: quiz.json.question_ids[0], response }] },
    });
    expectProblem(res, 400, "validation_failed");
    expect(res.problem.errors![0]!.path).toBe("answers[0].response");
  });

  it("a changed key makes a new version; an applied regrade moves the points; item analysis agrees", async () => {
    const { quizId, questionIds, submissionId } = await gradedWith([ORDERING, MATCHING], [["b", "a", "c", "d"], { fr: "paris" }]);
    const patched = await call(`/v1/quizzes/${quizId}/questions/${questionIds[0]}`, {
      method: "PATCH",
      body: { correct_order: ["b", "a", "c", "d"] },
    });
    expect(patched.json.version).toBe(2);
    const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    for (let i = 0; (await call(`/v1/jobs/${job.json.id}`)).json.status !== "succeeded"; i++) {
      if (i > 600) throw new Error("the regrade did not finish");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const results = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(results.answers.map((a) => [a.points_earned, a.question_version])).toEqual([
      [4, 2],
      [0, 1],
    ]);
    expectItemAnalysisMatch((await call(`/v1/analytics/quiz/${quizId}/items`)).json, await referenceItemAnalysis(quizId, "all"));
  });
});

const BLANKS = {
  type: "fill_in_blanks",
  prompt: "Complete.",
  points: 2,
  text: "The capital of France is {{city}} and it lies on the {{river}}.",
  blanks: [
    { id: "city", accepted_answers: ["Paris"] },
    { id: "river", accepted_answers: ["Seine", "the Seine"], case_sensitive: true },
  ],
};

describe("fill in the blanks through the API", () => {
  it("hand-computed points: partial (the default) earns the share of blanks right; all_or_nothing nothing short of all", async () => {
    const { submissionId, graded } = await gradedWith(
      [BLANKS, { ...BLANKS, scoring: "all_or_nothing" }, BLANKS],
      [{ city: "  PARIS ", river: "seine" }, { city: "Paris" }, { city: "paris", river: "the Seine" }],
    );
    // 1 of 2 right (the river is case-sensitive) → 1; all_or_nothing with one blank missing → 0; both right → 2.
    expect(graded).toMatchObject({ points_earned: 3, points_possible: 6, score: 50 });
    const results = (await call(`/v1/submissions/${submissionId}/results`)).json;
    expect(results.answers.map((a) => [a.points_earned, a.correct])).toEqual([
      [1, false],
      [0, false],
      [2, true],
    ]);
    expect(results.answers[0]!.correct_answer).toEqual({ city: ["Paris"], river: ["Seine", "the Seine"] });
  });

  it("blank ids left out are a, b, … by position", async () => {
    const quiz = await call("/v1/quizzes", {
      body: {
        title: "Ids",
        questions: [{ ...BLANKS, text: "{{a}} and {{b}}", blanks: BLANKS.blanks.map(({ id: _, ...b }) => b) }],
      },
    });
    expect(quiz.status, quiz.text).toBe(201);
    const question = (await call(`/v1/quizzes/${quiz.json.id}/questions`)).json.questions[0];
    expect(question!.blanks!.map((b) => b.id)).toEqual(["a", "b"]);
  });

  it.each([
    ["a marker without a blank", { ...BLANKS, text: "{{city}} {{river}} {{sea}}" }, "text"],
    ["a blank without a marker", { ...BLANKS, text: "Only {{city}}." }, "blanks[1].id"],
    ["a blank marked twice", { ...BLANKS, text: "{{city}} {{city}} {{river}}" }, "blanks[0].id"],
    ["duplicate blank ids", { ...BLANKS, blanks: [BLANKS.blanks[0], BLANKS.blanks[0]], text: "{{city}}" }, "blanks[1].id"],
    [
      "a blank without accepted answers",
      { ...BLANKS, blanks: [{ id: "city", accepted_answers: [] }, BLANKS.blanks[1]] },
      "blanks[0].accepted_answers",
    ],
  ])("a definition with %s → 400 naming %s", async (_, question, path) => {
    const res = await call("/v1/quizzes", { body: { title: "Bad", questions: [question] } });
    expectProblem(res, 400, "validation_failed");
    expect(res.problem.errors!.map((e) => e.path)).toContain(`questions[0].${path}`);
  });

  it.each([[{ sea: "North" }], [{ city: 7 }], [{ city: "x".repeat(1001) }], [["Paris"]], ["Paris"]])(
    "a response of the wrong shape or size (%j) → 400",
    async (response) => {
      const quiz = await call("/v1/quizzes", { body: { title: "Responses", questions: [BLANKS] } });
      const user = await call("/v1/users", { body: { name: "R", email: `${crypto.randomUUID()}@example.com` } });
      const res = await call(`/v1/quizzes/${quiz.json.id}/submissions`, {
        body: { user_id: user.json.id, answers: [{ question_id: quiz.json.question_ids[0], response }] },
      });
      expectProblem(res, 400, "validation_failed");
      expect(res.problem.errors![0]!.path).toBe("answers[0].response");
    },
  );

  it("a quiz whose answers could overflow a submission's row is refused: inline, when a question is added, when one grows", async () => {
    // Ten blanks of up to 1 000 characters: about 31 KB of row each; 29 fit in the 900 000 bytes, 30 do not.
    const wide = {
      ...BLANKS,
      text: ids(10)
        .map((id) => `{{${id}}}`)
        .join(" "),
      blanks: ids(10).map((id) => ({ id, accepted_answers: ["x"] })),
    };
    const refused = await call("/v1/quizzes", { body: { title: "Too wide", questions: Array(30).fill(wide) } });
    expectProblem(refused, 400, "validation_failed");
    expect(refused.problem.errors![0]!.path).toBe("questions");

    const quiz = await call("/v1/quizzes", { body: { title: "Nearly full", questions: Array(29).fill(wide) } });
    expect(quiz.status, quiz.text).toBe(201);
    const added = await call(`/v1/quizzes/${quiz.json.id}/questions`, { body: wide });
    expectProblem(added, 400, "validation_failed");
    // A small question still fits; growing it into a wide one does not.
    const small = await call(`/v1/quizzes/${quiz.json.id}/questions`, {
      body: { type: "true_false", prompt: "Yes?", correct: true },
    });
    expect(small.status, small.text).toBe(201);
    const grown = await call(`/v1/quizzes/${quiz.json.id}/questions/${small.json.id}`, { method: "PATCH", body: wide });
    expectProblem(grown, 400, "validation_failed");
    expect((await call(`/v1/quizzes/${quiz.json.id}`)).json.questions).toBe(30);
  });
});
