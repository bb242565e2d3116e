import { describe, expect, it } from "vitest";
import { call } from "../support/call";

/**
 * docs/security.md: option ids are data, not object keys. Ids that name members of every JavaScript
 * object (`constructor`, `__proto__`, `toString`, `hasOwnProperty`) work everywhere: creating the
 * question, answering, grading, results and item analysis's option counts.
 */

const ODD = ["constructor", "__proto__", "toString", "hasOwnProperty"];

const QUESTIONS = [
  {
    type: "single_choice",
    prompt: "Pick constructor.",
    options: ODD.map((id) => ({ id, text: `Option ${id}` })),
    correct_option_id: "constructor",
  },
  {
    type: "multiple_choice",
    prompt: "Pick __proto__ and toString.",
    options: ODD.map((id) => ({ id, text: `Option ${id}` })),
    correct_option_ids: ["__proto__", "toString"],
    scoring: "partial",
  },
  {
    type: "matching",
    prompt: "Match.",
    prompts: [
      { id: "__proto__", text: "One" },
      { id: "constructor", text: "Two" },
    ],
    choices: [
      { id: "toString", text: "1" },
      { id: "valueOf", text: "2" },
    ],
    // Parsed from JSON text: in an object literal, a __proto__ key would set the prototype.
    correct_matches: JSON.parse('{"__proto__":"toString","constructor":"valueOf"}'),
    scoring: "partial",
  },
  {
    type: "fill_in_blanks",
    prompt: "Fill.",
    text: "{{__proto__}} and {{constructor}}",
    blanks: [
      { id: "__proto__", accepted_answers: ["salt"] },
      { id: "constructor", accepted_answers: ["pepper"] },
    ],
  },
];

describe("option ids that name object members", () => {
  it("are kept, graded, shown in results and counted in item analysis", async () => {
    const quiz = await call("/v1/quizzes", {
      raw: JSON.stringify({ title: "Odd ids", questions: QUESTIONS }),
      headers: { "content-type": "application/json" },
    });
    expect(quiz.status, quiz.text).toBe(201);
    const ids = quiz.json.question_ids as string[];
    const questions = (await call(`/v1/quizzes/${quiz.json.id}/questions`)).json.questions;
    expect(questions[2]!.correct_matches).toEqual(JSON.parse('{"__proto__":"toString","constructor":"valueOf"}'));
    expect(questions[3]!.blanks!.map((b) => b.id)).toEqual(["__proto__", "constructor"]);

    const user = await call("/v1/users", { body: { name: "O", email: `${crypto.randomUUID()}@example.com` } });
    const answers = `[
      {"question_id":"${ids[0]}","response":"constructor"},
      {"question_id":"${ids[1]}","response":["__proto__","toString"]},
      {"question_id":"${ids[2]}","response":{"__proto__":"toString","constructor":"valueOf"}},
      {"question_id":"${ids[3]}","response":{"__proto__":"salt","constructor":"pepper"}}
    ]`;
    const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, {
      raw: `{"user_id":"${user.json.id}","answers":${answers}}`,
      headers: { "content-type": "application/json" },
    });
    expect(sub.status, sub.text).toBe(201);
    const graded = await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" });
    expect(graded.json).toMatchObject({ status: "graded", score: 100 });
    const results = await call(`/v1/submissions/${sub.json.id}/results`);
    expect(results.json.answers.map((a: { correct: boolean }) => a.correct)).toEqual([true, true, true, true]);

    const items = await call(`/v1/analytics/quiz/${quiz.json.id}/items`);
    expect(items.status, items.text).toBe(200);
    const counts = (i: number) => Object.fromEntries(items.json.items[i]!.options!.map((o) => [o.option_id, o.count]));
    for (const [i, chosen] of [
      [0, ["constructor"]],
      [1, ["__proto__", "toString"]],
    ] as const) {
      const c = counts(i);
      expect(Object.keys(c).sort()).toEqual([...ODD].sort());
      for (const id of ODD) expect(c[id], `${i} ${id}`).toBe((chosen as readonly string[]).includes(id) ? 1 : 0);
    }
  });
});
