import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, seedApiKey } from "../../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../../support/item-analysis-reference";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";

const SUBMISSIONS = 50;
const GRADES_PER_SUBMISSION = 5;
const USERS = 5;

const QUESTIONS = [
  { type: "true_false", prompt: "True?", correct: true },
  {
    type: "single_choice",
    prompt: "Which?",
    points: 2,
    options: [{ text: "A" }, { text: "B" }, { text: "C" }],
    correct_option_id: "c",
  },
  {
    type: "multiple_choice",
    prompt: "Which ones?",
    points: 1.5,
    options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
    correct_option_ids: ["a", "b"],
    scoring: "partial",
  },
  { type: "numeric", prompt: "n?", points: 0.5, correct_value: 7, tolerance: 0.5 },
];
/** A spread of responses per question, indexed by submission so the scores vary. */
const RESPONSES: unknown[][] = [
  [true, false],
  ["a", "b", "c"],
  [["a"], ["a", "b"], ["a", "c"], ["d"], []],
  [7, 7.4, 8, -1],
];

describe("POST /v1/submissions/{id}/grade, concurrently", () => {
  it(`${SUBMISSIONS} submissions each graded ${GRADES_PER_SUBMISSION} times at once: graded once, counted once`, async () => {
    // Separate credentials for setup and for the grading burst, each far below the rate limit.
    const { key: setup } = await seedApiKey(["admin"]);
    const { key: grader } = await seedApiKey(["submissions:write"]);
    const quizRes = await call("/v1/quizzes", { body: { title: "Concurrency", questions: QUESTIONS }, auth: setup });
    expect(quizRes.status, quizRes.text).toBe(201);
    const quizId = quizRes.json.id as string;
    const questionIds = ((await call(`/v1/quizzes/${quizId}/questions`, { auth: setup })).json.questions as { id: string }[]).map(
      (q) => q.id,
    );
    const users = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        const res = await call("/v1/users", {
          body: { name: `Racer ${i}`, email: `racer-${crypto.randomUUID()}@example.com` },
          auth: setup,
        });
        expect(res.status, res.text).toBe(201);
        return res.json.id as string;
      }),
    );
    const submissionIds = await Promise.all(
      Array.from({ length: SUBMISSIONS }, async (_, i) => {
        const answers = questionIds
          .map((question_id, q) => ({ question_id, response: RESPONSES[q]![(i + q) % RESPONSES[q]!.length] }))
          .filter((_, q) => (i + q) % 7 !== 0); // now and then a question left unanswered
        const res = await call(`/v1/quizzes/${quizId}/submissions`, {
          body: { user_id: users[i % USERS], answers },
          auth: setup,
        });
        expect(res.status, res.text).toBe(201);
        return res.json.id as string;
      }),
    );

    // Every grade call fired at once. The calls of one submission are fired back to back, so they
    // read it while it is still open and race to the write (the same id spread through the burst
    // would find it graded already: requests here start in the order they are sent).
    const order = submissionIds.flatMap((id) => Array.from({ length: GRADES_PER_SUBMISSION }, () => id));
    const answers = await Promise.all(order.map((id) => call(`/v1/submissions/${id}/grade`, { method: "POST", auth: grader })));

    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    const bySubmission = new Map<string, unknown[]>();
    order.forEach((id, i) => {
      expect(answers[i]!.json.submission_id).toBe(id);
      bySubmission.set(id, [...(bySubmission.get(id) ?? []), answers[i]!.json]);
    });
    expect(bySubmission.size).toBe(SUBMISSIONS);
    for (const [id, bodies] of bySubmission) {
      expect(bodies).toHaveLength(GRADES_PER_SUBMISSION);
      for (const body of bodies) expect(body, id).toEqual(bodies[0]);
    }

    const rows = await env.DB.prepare(
      "SELECT count(*) AS total, sum(status = 'graded') AS graded, count(DISTINCT grade_token) AS tokens FROM submissions WHERE quiz_id = ?",
    )
      .bind(quizId)
      .first<{ total: number; graded: number; tokens: number }>();
    expect(rows).toEqual({ total: SUBMISSIONS, graded: SUBMISSIONS, tokens: SUBMISSIONS });

    // What is stored is what every caller was told.
    const stored = await env.DB.prepare("SELECT id, score, graded_at FROM submissions WHERE quiz_id = ?").bind(quizId).all<any>();
    for (const row of stored.results) {
      expect(bySubmission.get(row.id)![0]).toMatchObject({ score: row.score, graded_at: row.graded_at });
    }

    const quizAnalytics = await call(`/v1/analytics/quiz/${quizId}`, { auth: setup });
    expect(quizAnalytics.json).toMatchObject({ total_attempts: SUBMISSIONS, unique_users: USERS });
    expect(quizAnalytics.json.questions.map((q) => q.attempts)).toEqual(questionIds.map(() => SUBMISSIONS));
    expectQuizAnalyticsMatch(quizAnalytics.json, await recomputeQuizAnalytics(quizId));
    // Item analysis too, for every submission and for each user's first: ten attempts per user
    // graded at once make "first" change hands under the race.
    for (const attempts of ["all", "first"] as const) {
      const items = await call(`/v1/analytics/quiz/${quizId}/items?attempts=${attempts}`, { auth: setup });
      expect(items.json.n).toBe(attempts === "all" ? SUBMISSIONS : USERS);
      expectItemAnalysisMatch(items.json, await referenceItemAnalysis(quizId, attempts));
    }
    for (const user of users) {
      const userAnalytics = await call(`/v1/analytics/user/${user}`, { auth: setup });
      expect(userAnalytics.json).toMatchObject({ total_attempts: SUBMISSIONS / USERS, quizzes_taken: 1 });
      expectUserAnalyticsMatch(userAnalytics.json, await recomputeUserAnalytics(user));
    }
  }, 60_000);
});
