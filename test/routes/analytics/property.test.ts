import fc from "fast-check";
import { describe, it } from "vitest";
import { seedApiKey } from "../../support/call";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";
import { analytics, createQuiz, createUser, take, tf } from "./fixtures";

describe("analytics property", () => {
  // Four questions worth 1, 2, 3 and 0.7 points (the last with partial credit), so scores take
  // many uneven values; users answer any mix, some submissions stay open.
  const QUESTIONS = [
    tf(1),
    tf(2),
    {
      type: "single_choice",
      prompt: "Which?",
      points: 3,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }],
      correct_option_id: "c",
    },
    {
      type: "multiple_choice",
      prompt: "Which ones?",
      points: 0.7,
      options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
      correct_option_ids: ["a", "b", "c"],
      scoring: "partial",
    },
  ];
  const responseArbs: fc.Arbitrary<unknown>[] = [
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom("a", "b", "c"),
    fc.subarray(["a", "b", "c", "d"]),
  ];
  const submissionArb = fc.record({
    user: fc.nat({ max: 3 }),
    // undefined: the question is left unanswered.
    responses: fc.tuple(...responseArbs.map((arb) => fc.option(arb, { nil: undefined, freq: 4 }))),
    // About one in four stays open.
    open: fc.nat({ max: 3 }).map((n) => n === 0),
  });

  it("for random score patterns the API's analytics equal a recomputation", async () => {
    const { key: setupKey } = await seedApiKey(["admin"]);
    // Two users shared by every run, so their analytics span many quizzes; two fresh per run.
    const shared = [await createUser(setupKey), await createUser(setupKey)];
    await fc.assert(
      fc.asyncProperty(fc.array(submissionArb, { minLength: 0, maxLength: 6 }), async (submissions) => {
        // A key per run: every request of the run on one credential stays far below the rate limit.
        const { key } = await seedApiKey(["admin"]);
        const [quiz, ...fresh] = await Promise.all([createQuiz(QUESTIONS, key), createUser(key), createUser(key)] as const);
        const users = [...shared, ...fresh];
        // Taken and graded concurrently: the aggregates must not depend on the order of grading.
        await Promise.all(
          submissions.map((s) => {
            const answers = quiz.ids.flatMap((id, i): [string, unknown][] =>
              s.responses[i] === undefined ? [] : [[id, s.responses[i]]],
            );
            return take(quiz.id, users[s.user]!, answers, { open: s.open, auth: key });
          }),
        );
        expectQuizAnalyticsMatch(await analytics("quiz", quiz.id, key), await recomputeQuizAnalytics(quiz.id));
        await Promise.all(
          users.map(async (user) =>
            expectUserAnalyticsMatch(await analytics("user", user, key), await recomputeUserAnalytics(user)),
          ),
        );
      }),
      { seed: 20261122, numRuns: 25 },
    );
  }, 60_000);
});
