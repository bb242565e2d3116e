import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerProblems, MAX_SHORT_TEXT_RESPONSE_LENGTH, responseProblem } from "../../src/domain/answers";
import type { GradableQuestion } from "../../src/domain/question-types";

const RUN = { seed: 11, numRuns: 300 } as const;

const options = [
  { id: "a", text: "A" },
  { id: "b", text: "B" },
  { id: "c", text: "C" },
];
const QUESTIONS: GradableQuestion[] = [
  { id: "q1", type: "single_choice", points: 1, feedback: {}, options, correct_option_id: "a" },
  { id: "q2", type: "multiple_choice", points: 1, feedback: {}, options, correct_option_ids: ["a", "b"], scoring: "partial" },
  { id: "q3", type: "true_false", points: 1, feedback: {}, correct: true },
  { id: "q4", type: "short_text", points: 1, feedback: {}, accepted_answers: ["Paris"], case_sensitive: false },
  { id: "q5", type: "numeric", points: 1, feedback: {}, correct_value: 4, tolerance: 0 },
];
const question = (id: string) => QUESTIONS.find((q) => q.id === id) as GradableQuestion;

describe("responseProblem", () => {
  it("accepts a response of the question's type", () => {
    for (const [id, response] of [
      ["q1", "b"],
      ["q2", ["c", "a"]],
      ["q2", []],
      ["q3", false],
      ["q4", "Lyon"],
      ["q5", -0.5],
    ] as const)
      expect(responseProblem(question(id), response)).toBeUndefined();
  });

  it("says what is wrong with any other response", () => {
    expect(responseProblem(question("q1"), 1)).toBe("must be an option id (a string)");
    expect(responseProblem(question("q1"), "z")).toBe("must be one of the question's option ids");
    expect(responseProblem(question("q2"), "a")).toBe("must be an array of option ids");
    expect(responseProblem(question("q2"), ["a", "z"])).toBe("must hold only the question's option ids");
    expect(responseProblem(question("q2"), ["a", "a"])).toBe("must not repeat an option id");
    expect(responseProblem(question("q3"), "true")).toBe("must be a boolean");
    expect(responseProblem(question("q4"), 42)).toBe("must be a string");
    expect(responseProblem(question("q4"), "x".repeat(MAX_SHORT_TEXT_RESPONSE_LENGTH + 1))).toMatch(/at most/);
    expect(responseProblem(question("q4"), "x".repeat(MAX_SHORT_TEXT_RESPONSE_LENGTH))).toBeUndefined();
    expect(responseProblem(question("q5"), Number.NaN)).toBe("must be a finite number");
  });
});

describe("answerProblems", () => {
  it("no problem for answers that each name a question once with a fitting response", () => {
    expect(answerProblems([], QUESTIONS)).toEqual([]);
    expect(
      answerProblems(
        [
          { question_id: "q3", response: true },
          { question_id: "q1", response: "c" },
        ],
        QUESTIONS,
      ),
    ).toEqual([]);
  });

  it("an answer to a question the quiz does not have", () => {
    expect(answerProblems([{ question_id: "q9", response: true }], QUESTIONS)).toEqual([
      { path: "answers[0].question_id", message: "Not a question of this quiz." },
    ]);
  });

  it("a question answered twice: the second answer is the problem", () => {
    expect(
      answerProblems(
        [
          { question_id: "q3", response: true },
          { question_id: "q3", response: false },
        ],
        QUESTIONS,
      ),
    ).toEqual([{ path: "answers[1].question_id", message: "The question is answered twice." }]);
  });

  it("a response that does not fit its question names the question's type", () => {
    expect(answerProblems([{ question_id: "q5", response: "4" }], QUESTIONS)).toEqual([
      { path: "answers[0].response", message: "A numeric response must be a finite number." },
    ]);
  });

  it("lists every problem, in the order of the answers", () => {
    const problems = answerProblems(
      [
        { question_id: "q1", response: "z" },
        { question_id: "nope", response: null },
        { question_id: "q1", response: "a" },
      ],
      QUESTIONS,
    );
    expect(problems.map((p) => p.path)).toEqual(["answers[0].response", "answers[1].question_id", "answers[2].question_id"]);
  });

  const answerArb = fc.record({
    question_id: fc.oneof(fc.constantFrom(...QUESTIONS.map((q) => q.id)), fc.string()),
    response: fc.oneof(fc.constantFrom("a", "b", "z", true, 4, ["a"], ["a", "a"]), fc.anything()),
  });

  it("one problem at most per answer, each naming an answer by its index", () => {
    fc.assert(
      fc.property(fc.array(answerArb, { maxLength: 12 }), (answers) => {
        const problems = answerProblems(answers, QUESTIONS);
        const indexes = problems.map((p) => Number(/^answers\[(\d+)\]\.(question_id|response)$/.exec(p.path)?.[1]));
        expect(new Set(indexes).size).toBe(problems.length);
        for (const i of indexes) {
          expect(i).toBeGreaterThanOrEqual(0);
          expect(i).toBeLessThan(answers.length);
        }
      }),
      RUN,
    );
  });

  it("agrees with responseProblem on the first answer to each known question", () => {
    fc.assert(
      fc.property(fc.array(answerArb, { maxLength: 12 }), (answers) => {
        const problems = new Map(answerProblems(answers, QUESTIONS).map((p) => [p.path, p.message]));
        const seen = new Set<string>();
        answers.forEach(({ question_id, response }, i) => {
          const q = QUESTIONS.find((x) => x.id === question_id);
          if (q && !seen.has(question_id)) {
            const problem = responseProblem(q, response);
            expect(problems.get(`answers[${i}].response`)).toBe(problem && `A ${q.type} response ${problem}.`);
          }
          seen.add(question_id);
        });
      }),
      RUN,
    );
  });
});

describe("a stored answer's bytes", () => {
  it("an answer with its seq and saved_at, and its results entry, without the response, fit ROW_BYTES.entry", async () => {
    const { ROW_BYTES } = await import("../../src/domain/question-types/rules");
    const id = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
    const answer = JSON.stringify({ question_id: id, response: null, seq: 2 ** 53 - 1, saved_at: "2026-11-22T08:00:00.000Z" });
    const result = JSON.stringify({
      question_id: id,
      version: 4_294_967_295,
      correct: false,
      points_earned: 123_456.123456,
      points_possible: 1_000_000,
      chosen: [],
      pending: true,
    });
    // Two commas join them to their arrays; "null" stands where the response goes.
    expect(answer.length - "null".length + result.length + 2).toBeLessThanOrEqual(ROW_BYTES.entry);
  });
});
