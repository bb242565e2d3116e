import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";

/**
 * §13's question fields: `title`, `tags` (and `?tag=`) and a choice option's `feedback` — part
 * of the key, so hidden from credentials without quizzes:write, shown with the option's result
 * once the reveal policy shows the key. Titles and tags grade nothing: no new version.
 */

let reader: string;
beforeAll(async () => {
  reader = (await seedApiKey(["quizzes:read", "submissions:read"], { name: "reader" })).key;
});

const choice = {
  type: "single_choice",
  title: "Capital of France",
  tags: ["geography", "europe"],
  prompt: "Capital of France?",
  options: [
    { text: "Paris", feedback: "Yes: Paris has been the capital since 987." },
    { text: "Lyon", feedback: "No: Lyon is France's third city." },
    { text: "Nice" },
  ],
  correct_option_id: "a",
};

async function createQuiz(questions: unknown[] = [], settings: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: `Tags ${crypto.randomUUID()}`, questions, settings } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; question_ids: string[] };
}

async function addQuestion(quizId: string, body: unknown) {
  const res = await call(`/v1/quizzes/${quizId}/questions`, { body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function eventsOf(type: string, objectId: string) {
  const res = await call(`/v1/events?type=${type}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.events.filter((e) => e.data.object.id === objectId);
}

describe("title, tags and option feedback on a question", () => {
  it("are stored and shown to quizzes:write; to quizzes:read without the option feedback", async () => {
    const quiz = await createQuiz();
    const q = await addQuestion(quiz.id, choice);
    expect(q).toMatchObject({ title: "Capital of France", tags: ["geography", "europe"], version: 1 });
    expect(q.options).toEqual([
      { id: "a", text: "Paris", feedback: "Yes: Paris has been the capital since 987." },
      { id: "b", text: "Lyon", feedback: "No: Lyon is France's third city." },
      { id: "c", text: "Nice" },
    ]);
    const hidden = await call(`/v1/quizzes/${quiz.id}/questions/${q.id}`, { auth: reader });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.json).toMatchObject({ title: "Capital of France", tags: ["geography", "europe"] });
    expect(hidden.json.options).toEqual([
      { id: "a", text: "Paris" },
      { id: "b", text: "Lyon" },
      { id: "c", text: "Nice" },
    ]);
    const listed = await call(`/v1/quizzes/${quiz.id}/questions`, { auth: reader });
    expect(JSON.stringify(listed.json)).not.toContain("Lyon is France");
  });

  it("are optional: title null and tags [] when left out; inline questions of a new quiz take them too", async () => {
    const quiz = await createQuiz([choice, { type: "true_false", prompt: "Water is wet.", correct: true }]);
    const listed = await call(`/v1/quizzes/${quiz.id}/questions`);
    expect(listed.json.questions.map((q) => [q.title, q.tags])).toEqual([
      ["Capital of France", ["geography", "europe"]],
      [null, []],
    ]);
  });

  it("question events carry the title and tags, never option feedback", async () => {
    const quiz = await createQuiz();
    const q = await addQuestion(quiz.id, choice);
    const [created] = await eventsOf("question.created", q.id);
    expect(created!.data.object).toMatchObject({ title: "Capital of France", tags: ["geography", "europe"] });
    expect(JSON.stringify(created)).not.toContain('feedback":"');
    const res = await call(`/v1/quizzes/${quiz.id}/questions/${q.id}`, { method: "PATCH", body: { title: "Paris" } });
    expect(res.status, res.text).toBe(200);
    const [updated] = await eventsOf("question.updated", q.id);
    expect(updated!.previous_attributes).toEqual({ title: "Capital of France" });
  });

  it.each([
    [{ tags: ["a", "a"] }, "tags[1]"],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, "tags"],
    [{ tags: ["x".repeat(101)] }, "tags[0]"],
    [{ tags: ["  "] }, "tags[0]"],
    [{ title: "x".repeat(201) }, "title"],
    [{ title: "two\nlines" }, "title"],
    [{ options: [{ text: "Paris", feedback: "" }, { text: "Lyon" }] }, "options[0].feedback"],
  ])("refuses %j → 400 naming %s", async (change, path) => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}/questions`, { body: { ...choice, ...change } });
    expect(expectProblem(res, 400).errors?.map((e) => e.path)).toContain(path);
  });

  it("feedback is for choice options only: an ordering item with feedback → 400", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}/questions`, {
      body: { type: "ordering", prompt: "Order", items: [{ text: "1", feedback: "x" }, { text: "2" }] },
    });
    expect(expectProblem(res, 400).errors?.map((e) => e.path)).toContain("items[0].feedback");
  });

  it("a change of title, tags or option feedback makes no new version; a change of option text does", async () => {
    const quiz = await createQuiz();
    const q = await addQuestion(quiz.id, choice);
    const path = `/v1/quizzes/${quiz.id}/questions/${q.id}` as const;
    const retitled = await call(path, { method: "PATCH", body: { title: null, tags: ["history"] } });
    expect(retitled.json).toMatchObject({ title: null, tags: ["history"], version: 1 });
    const options = [{ text: "Paris", feedback: "Right." }, { text: "Lyon" }, { text: "Nice", feedback: "Wrong." }];
    const refed = await call(path, { method: "PATCH", body: { options } });
    expect(refed.status, refed.text).toBe(200);
    expect(refed.json.version).toBe(1);
    expect(refed.json.options![2]).toEqual({ id: "c", text: "Nice", feedback: "Wrong." });
    const reworded = await call(path, { method: "PATCH", body: { options: [...options.slice(0, 2), { text: "Marseille" }] } });
    expect(reworded.json.version).toBe(2);
    // Other fields keep the title and tags they had.
    const kept = await call(path, { method: "PATCH", body: { points: 3 } });
    expect(kept.json).toMatchObject({ title: null, tags: ["history"], points: 3 });
  });
});

describe("GET /v1/quizzes/{id}/questions?tag=", () => {
  it("lists only questions carrying the tag, by position, paginated with the tag kept in the Link", async () => {
    const quiz = await createQuiz();
    const tagged = [];
    for (let i = 0; i < 5; i++) {
      const q = await addQuestion(quiz.id, {
        type: "true_false",
        prompt: `Statement ${i}`,
        correct: true,
        tags: i % 2 === 0 ? ["even", "all"] : ["all"],
      });
      if (i % 2 === 0) tagged.push(q.id);
    }
    const first = await call(`/v1/quizzes/${quiz.id}/questions?tag=even&limit=2`, { auth: reader });
    expect(first.status, first.text).toBe(200);
    expect(first.json.questions.map((q) => q.id)).toEqual(tagged.slice(0, 2));
    const link = first.headers.get("link") ?? "";
    expect(link).toContain("tag=even");
    const next = await call((/<([^>]+)>/.exec(link)?.[1] ?? "") as `/v1/quizzes/${string}/questions?${string}`, { auth: reader });
    expect(next.json).toMatchObject({ next_cursor: null });
    expect(next.json.questions.map((q) => q.id)).toEqual(tagged.slice(2));
    expect((await call(`/v1/quizzes/${quiz.id}/questions?tag=All`)).json.questions).toEqual([]);
    expect((await call(`/v1/quizzes/${quiz.id}/questions?tag=all&limit=100`)).json.questions).toHaveLength(5);
  });

  it("an unknown quiz → 404 with a tag too; an empty or over-long tag → 400", async () => {
    expectProblem(await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/questions?tag=x"), 404);
    const quiz = await createQuiz();
    expectProblem(await call(`/v1/quizzes/${quiz.id}/questions?tag=`), 400);
    expectProblem(await call(`/v1/quizzes/${quiz.id}/questions?tag=${"x".repeat(101)}`), 400);
  });
});

describe("option feedback in results", () => {
  async function gradedWith(policy: string, response: unknown, question: unknown = choice) {
    const quiz = await createQuiz([question], { show_correct_answers: policy });
    const user = await call("/v1/users", { body: { name: "Learner", email: `o-${crypto.randomUUID()}@example.com` } });
    const sub = await call(`/v1/quizzes/${quiz.id}/submissions`, {
      body: { user_id: user.json.id, answers: [{ question_id: quiz.question_ids[0], response }] },
    });
    expect(sub.status, sub.text).toBe(201);
    expect((await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" })).status).toBe(200);
    return sub.json.id as string;
  }

  it("shows the chosen option's feedback with its result when the key is revealed", async () => {
    const id = await gradedWith("always", "b");
    const res = await call(`/v1/submissions/${id}/results`, { auth: reader });
    expect(res.json.answers[0]!.option_feedback).toEqual([{ option_id: "b", feedback: "No: Lyon is France's third city." }]);
  });

  it("multiple choice: each chosen option that has feedback, in the question's order", async () => {
    const multiple = {
      type: "multiple_choice",
      prompt: "Capitals?",
      options: [{ text: "Madrid", feedback: "Spain." }, { text: "Porto", feedback: "Not a capital." }, { text: "Rome" }],
      correct_option_ids: ["a", "c"],
      scoring: "partial",
    };
    const id = await gradedWith("always", ["c", "b", "a"], multiple);
    const res = await call(`/v1/submissions/${id}/results`, { auth: reader });
    expect(res.json.answers[0]!.option_feedback).toEqual([
      { option_id: "a", feedback: "Spain." },
      { option_id: "b", feedback: "Not a capital." },
    ]);
  });

  it("is hidden while the policy hides the key, shown to quizzes:write; absent when the option has none", async () => {
    const id = await gradedWith("never", "b");
    const hidden = await call(`/v1/submissions/${id}/results`, { auth: reader });
    expect(hidden.json.answers[0]).not.toHaveProperty("option_feedback");
    expect(hidden.text).not.toContain("Lyon is France");
    const shown = await call(`/v1/submissions/${id}/results`);
    expect(shown.json.answers[0]!.option_feedback).toHaveLength(1);
    const none = await gradedWith("always", "c");
    expect((await call(`/v1/submissions/${none}/results`)).json.answers[0]).not.toHaveProperty("option_feedback");
  });
});
