import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AnswerOf, call, expectProblem, type Schema, seedApiKey } from "../../support/call";
import { expectItemAnalysisMatch, referenceItemAnalysis } from "../../support/item-analysis-reference";
import { answersFor, ITEM_QUESTIONS } from "../../support/item-fixtures";
import {
  expectQuizAnalyticsMatch,
  expectUserAnalyticsMatch,
  recomputeQuizAnalytics,
  recomputeUserAnalytics,
} from "../../support/recompute";

/**
 * POST /v1/quizzes/{id}/regrade: a dry run changes nothing; applied, everything equals a fresh
 * grading under the new key (a twin quiz created with that key and given the same answers); a
 * second identical regrade changes nothing; the policies; racing grade calls stay exact.
 */

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a regrade and waits for the real jobs queue to finish it. */
async function regrade(quizId: string, body: Record<string, unknown>) {
  const res = await call(`/v1/quizzes/${quizId}/regrade`, { body });
  expect(res.status, res.text).toBe(202);
  expect(res.headers.get("location")).toBe(`/v1/jobs/${res.json.id}`);
  expect(res.json).toMatchObject({ type: "regrade", status: "queued", quiz_id: quizId });
  const job = await until(
    // A regrade's job.
    async () => (await call(`/v1/jobs/${res.json.id}`)).json as Schema<"RegradeJob">,
    (j) => j.status === "succeeded" || j.status === "failed",
    "the regrade",
  );
  expect(job.status, JSON.stringify(job)).toBe("succeeded");
  const changes: Schema<"JobChange">[] = [];
  let cursor: string | null = null;
  do {
    const page: AnswerOf<`/v1/jobs/${string}/changes?${string}`> = await call(
      `/v1/jobs/${job.id}/changes?limit=7${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(page.status, page.text).toBe(200);
    changes.push(...page.json.changes);
    cursor = page.json.next_cursor;
  } while (cursor);
  return { job, changes };
}

/** Everything a regrade may move, read straight from the tables. */
async function snapshot(quizId: string) {
  const all = async (query: string) => (await env.DB.prepare(query).bind(quizId).all()).results;
  return {
    submissions: await all("SELECT * FROM submissions WHERE quiz_id = ? ORDER BY id"),
    quizStats: await all("SELECT * FROM quiz_stats WHERE quiz_id = ?"),
    itemSums: await all("SELECT * FROM item_sums WHERE quiz_id = ? ORDER BY attempts"),
    grades: await all("SELECT * FROM grades WHERE quiz_id = ? ORDER BY user_id"),
    userStats: await all(
      "SELECT * FROM user_stats WHERE user_id IN (SELECT user_id FROM submissions WHERE quiz_id = ?) ORDER BY user_id",
    ),
    events: await all("SELECT id FROM events WHERE json_extract(data, '$.object.quiz_id') = ? ORDER BY id"),
  };
}

/** A quiz taken by `users` users, attempts graded; the same picks give a twin the same answers. */
async function takenQuiz(questions: unknown[], picks: number[][][]) {
  const quiz = await call("/v1/quizzes", { body: { title: "Regrade", questions } });
  expect(quiz.status, quiz.text).toBe(201);
  const quizId = quiz.json.id as string;
  const questionIds = quiz.json.question_ids as string[];
  const users: string[] = [];
  for (const attempts of picks) {
    const user = await call("/v1/users", { body: { name: "R", email: `${crypto.randomUUID()}@example.com` } });
    users.push(user.json.id);
    for (const attemptPicks of attempts) {
      const sub = await call(`/v1/quizzes/${quizId}/submissions`, {
        body: { user_id: user.json.id, answers: answersFor(questionIds, attemptPicks) },
      });
      expect(sub.status, sub.text).toBe(201);
      const graded = await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" });
      expect(graded.status, graded.text).toBe(200);
    }
  }
  return { quizId, questionIds, users };
}

const PICKS = Array.from({ length: 6 }, (_, u) =>
  Array.from({ length: 1 + (u % 3) }, (_, a) => Array.from({ length: 5 }, (_, q) => u * 7 + a * 3 + q * 5)),
);

/** The new key: the single choice's right answer moves from b to c, the short text accepts Lyon too, the numeric is worth 2. */
const NEW_KEY = [{ correct_option_id: "c" }, { accepted_answers: ["Paris", "Lyon"] }, { points: 2 }] as const;
const CHANGED = [1, 4, 3];
const newQuestions = () => ITEM_QUESTIONS.map((q, i) => (CHANGED.includes(i) ? { ...q, ...NEW_KEY[CHANGED.indexOf(i)] } : q));

async function changeKey(quizId: string, questionIds: string[]) {
  for (const [k, i] of CHANGED.entries()) {
    const res = await call(`/v1/quizzes/${quizId}/questions/${questionIds[i]}`, {
      method: "PATCH",
      body: NEW_KEY[k],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.version).toBe(2);
  }
}

const without = (object: object, ...keys: string[]) =>
  Object.fromEntries(Object.entries(object).filter(([k]) => !keys.includes(k)));

describe("regrade", () => {
  it("a dry run lists the changes and changes nothing", async () => {
    const { quizId, questionIds } = await takenQuiz(ITEM_QUESTIONS, PICKS);
    await changeKey(quizId, questionIds);
    const before = await snapshot(quizId);
    const { job, changes } = await regrade(quizId, {});
    expect(await snapshot(quizId)).toEqual(before);
    expect(job.result!.dry_run).toBe(true);
    expect(job.result!.submissions_considered).toBe(before.submissions.length);
    expect(job.progress).toEqual({ done: before.submissions.length, total: before.submissions.length });
    expect(changes.length).toBe(job.result!.submissions_changed);
    expect(changes.length).toBeGreaterThan(0);
    // The changes are what an applied regrade then makes.
    const applied = await regrade(quizId, { dry_run: false });
    expect(applied.changes).toEqual(changes);
    expect(without(applied.job.result!, "dry_run")).toEqual(without(job.result!, "dry_run"));
  }, 60_000);

  it("applied, equals grading under the new key from the start; each change emits submission.regraded; again, nothing changes", async () => {
    const regraded = await takenQuiz(ITEM_QUESTIONS, PICKS);
    const twin = await takenQuiz(newQuestions(), PICKS);
    await changeKey(regraded.quizId, regraded.questionIds);
    const eventsBefore = (await snapshot(regraded.quizId)).events.length;
    const { job, changes } = await regrade(regraded.quizId, { dry_run: false });
    expect(job.result!.submissions_changed).toBe(changes.length);

    const subs = async (quizId: string) =>
      (
        await env.DB.prepare(
          "SELECT s.id, u.rank, s.attempt, s.score, s.points_earned, s.points_possible, s.feedback FROM submissions s JOIN (SELECT user_id, row_number() OVER (ORDER BY min(id)) AS rank FROM submissions WHERE quiz_id = ?1 GROUP BY user_id) u ON u.user_id = s.user_id WHERE s.quiz_id = ?1 ORDER BY u.rank, s.attempt",
        )
          .bind(quizId)
          .all<{
            id: string;
            rank: number;
            attempt: number;
            score: number | null;
            points_earned: number;
            points_possible: number;
            feedback: string | null;
          }>()
      ).results;
    const mine = await subs(regraded.quizId);
    const theirs = await subs(twin.quizId);
    expect(mine.map((s) => without(s, "id"))).toEqual(theirs.map((s) => without(s, "id")));
    // Results answer by answer: the same points and correctness; the regraded name version 2 of the changed questions.
    for (const [i, sub] of mine.entries()) {
      const a = (await call(`/v1/submissions/${sub.id}/results`)).json;
      const b = (await call(`/v1/submissions/${theirs[i]!.id}/results`)).json;
      expect(a.answers.map((x) => without(x, "question_id", "question_version"))).toEqual(
        b.answers.map((x) => without(x, "question_id", "question_version")),
      );
      expect(a.answers.map((x) => x.question_version)).toEqual(ITEM_QUESTIONS.map((_, q) => (CHANGED.includes(q) ? 2 : 1)));
    }
    // Analytics, grades and item analysis: equal to the twin's, and to a recomputation.
    const analytics = async (quizId: string) =>
      without((await call(`/v1/analytics/quiz/${quizId}`)).json, "quiz_id", "questions");
    expect(await analytics(regraded.quizId)).toEqual(await analytics(twin.quizId));
    expectQuizAnalyticsMatch(
      (await call(`/v1/analytics/quiz/${regraded.quizId}`)).json,
      await recomputeQuizAnalytics(regraded.quizId),
    );
    for (const user of regraded.users)
      expectUserAnalyticsMatch((await call(`/v1/analytics/user/${user}`)).json, await recomputeUserAnalytics(user));
    const grades = async (quizId: string) =>
      (await call(`/v1/quizzes/${quizId}/grades?limit=100`)).json.grades.map((g) => without(g, "user_id", "quiz_id"));
    expect(await grades(regraded.quizId)).toEqual(await grades(twin.quizId));
    for (const attempts of ["all", "first"] as const) {
      const items = (await call(`/v1/analytics/quiz/${regraded.quizId}/items?attempts=${attempts}`)).json;
      const twins = (await call(`/v1/analytics/quiz/${twin.quizId}/items?attempts=${attempts}`)).json;
      expectItemAnalysisMatch(items, await referenceItemAnalysis(regraded.quizId, attempts));
      expect(without(items, "quiz_id", "items")).toEqual(without(twins, "quiz_id", "items"));
    }

    // One submission.regraded per change, with the score before.
    const events = (
      await env.DB.prepare(
        "SELECT json_extract(data, '$.object.id') AS id, json_extract(data, '$.object.score') AS score, json_extract(previous_attributes, '$.score') AS before FROM events WHERE type = 'submission.regraded' AND json_extract(data, '$.object.quiz_id') = ? ORDER BY 1",
      )
        .bind(regraded.quizId)
        .all<{ id: string; score: number | null; before: number | null }>()
    ).results;
    expect(events).toEqual(
      changes
        .map((c) => ({ id: c.submission_id, score: c.score_after, before: c.score_before }))
        .sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect((await snapshot(regraded.quizId)).events.length).toBe(eventsBefore + changes.length);

    // The same regrade again: nothing changes, nothing is emitted.
    const settled = await snapshot(regraded.quizId);
    const again = await regrade(regraded.quizId, { dry_run: false });
    expect(again.job.result!.submissions_changed).toBe(0);
    expect(again.changes).toEqual([]);
    expect(await snapshot(regraded.quizId)).toEqual(settled);
  }, 120_000);

  it("full_credit gives every listed question full points; higher_of keeps the larger; unlisted questions keep their grade", async () => {
    const tf = Array.from({ length: 3 }, (_, i) => ({ type: "true_false", prompt: `S${i}?`, correct: true, points: i + 1 }));
    const quiz = await call("/v1/quizzes", { body: { title: "Policies", questions: tf } });
    const ids = quiz.json.question_ids as string[];
    const user = await call("/v1/users", { body: { name: "P", email: `${crypto.randomUUID()}@example.com` } });
    // Right on the first, wrong on the second, the third unanswered: 1 of 6 points.
    const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, {
      body: {
        user_id: user.json.id,
        answers: [
          { question_id: ids[0], response: true },
          { question_id: ids[1], response: false },
        ],
      },
    });
    await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" });
    const score = async () => (await call(`/v1/submissions/${sub.json.id}`)).json.score;
    expect(await score()).toBe(16.67);

    // The key of the first flips: under higher_of it keeps its point, the second gains none.
    await call(`/v1/quizzes/${quiz.json.id}/questions/${ids[0]}`, { method: "PATCH", body: { correct: false } });
    await call(`/v1/quizzes/${quiz.json.id}/questions/${ids[1]}`, { method: "PATCH", body: { correct: false } });
    const higher = await regrade(quiz.json.id, { dry_run: false, policy: "higher_of" });
    expect(higher.changes).toEqual([{ submission_id: sub.json.id, user_id: user.json.id, score_before: 16.67, score_after: 50 }]);
    expect(await score()).toBe(50);

    // full_credit on the third only: answered or not, its 3 points.
    const full = await regrade(quiz.json.id, { dry_run: false, policy: "full_credit", question_ids: [ids[2]] });
    expect(full.job.result).toMatchObject({
      submissions_considered: 1,
      submissions_changed: 1,
      mean_score_before: 50,
      mean_score_after: 100,
    });
    const results = (await call(`/v1/submissions/${sub.json.id}/results`)).json;
    expect(results.answers.map((a) => [a.points_earned, a.correct, a.question_version])).toEqual([
      [1, true, 2],
      [2, true, 2],
      [3, true, 1],
    ]);
    expectQuizAnalyticsMatch((await call(`/v1/analytics/quiz/${quiz.json.id}`)).json, await recomputeQuizAnalytics(quiz.json.id));
    expectItemAnalysisMatch(
      (await call(`/v1/analytics/quiz/${quiz.json.id}/items`)).json,
      await referenceItemAnalysis(quiz.json.id, "all"),
    );
  }, 60_000);

  it("a regrade racing 100 grade calls stays exact", async () => {
    const { quizId, questionIds, users } = await takenQuiz(ITEM_QUESTIONS, PICKS);
    const open: string[] = [];
    for (let i = 0; i < 100; i++) {
      const sub = await call(`/v1/quizzes/${quizId}/submissions`, {
        body: { user_id: users[i % users.length], answers: answersFor(questionIds, [i, i * 3, i * 5, i * 7, i * 11]) },
      });
      open.push(sub.json.id);
    }
    await changeKey(quizId, questionIds);
    const started = await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry_run: false } });
    expect(started.status, started.text).toBe(202);
    const grades = await Promise.all(open.map((id) => call(`/v1/submissions/${id}/grade`, { method: "POST" })));
    expect(grades.map((g) => g.status).filter((s) => s !== 200)).toEqual([]);
    await until(
      async () => (await call(`/v1/jobs/${started.json.id}`)).json.status,
      (s) => s === "succeeded",
      "the regrade",
    );
    // Whatever the interleaving, every figure equals a recomputation over the stored submissions,
    // and every submission ends graded under the new key.
    expectQuizAnalyticsMatch((await call(`/v1/analytics/quiz/${quizId}`)).json, await recomputeQuizAnalytics(quizId));
    for (const user of users)
      expectUserAnalyticsMatch((await call(`/v1/analytics/user/${user}`)).json, await recomputeUserAnalytics(user));
    for (const attempts of ["all", "first"] as const)
      expectItemAnalysisMatch(
        (await call(`/v1/analytics/quiz/${quizId}/items?attempts=${attempts}`)).json,
        await referenceItemAnalysis(quizId, attempts),
      );
    const stale = await env.DB.prepare(
      "SELECT count(*) AS n FROM submissions s, json_each(s.results) r WHERE s.quiz_id = ? AND json_extract(r.value, '$.question_id') IN (SELECT id FROM questions WHERE version = 2) AND json_extract(r.value, '$.version') = 1",
    )
      .bind(quizId)
      .first<{ n: number }>();
    expect(stale!.n).toBe(0);
  }, 120_000);

  it("question ids not of the quiz, unknown fields or policies: 400; an unknown quiz: 404; another scope's job: 404", async () => {
    const { quizId, questionIds } = await takenQuiz(ITEM_QUESTIONS.slice(0, 2), [[[0, 0]]]);
    const other = await call("/v1/quizzes", { body: { title: "Other", questions: ITEM_QUESTIONS.slice(0, 1) } });
    const bad = await call(`/v1/quizzes/${quizId}/regrade`, {
      body: { question_ids: [questionIds[0], other.json.question_ids[0]] },
    });
    expectProblem(bad, 400, "validation_failed");
    expect(bad.problem.errors).toEqual([{ path: "question_ids[1]", message: "Not a question of this quiz." }]);
    expectProblem(await call(`/v1/quizzes/${quizId}/regrade`, { body: { policy: "lenient" } }), 400);
    expectProblem(await call(`/v1/quizzes/${quizId}/regrade`, { body: { dry: true } }), 400);
    expectProblem(await call(`/v1/quizzes/${quizId}/regrade`, { body: { question_ids: [questionIds[0], questionIds[0]] } }), 400);
    expectProblem(await call("/v1/quizzes/quiz_00000000000000000000000000/regrade", { body: {} }), 404);
    const job = await call(`/v1/quizzes/${quizId}/regrade`, { body: {} });
    const { key: reader } = await seedApiKey(["quizzes:read"]);
    expectProblem(await call(`/v1/jobs/${job.json.id}`, { auth: reader }), 404);
    expectProblem(await call(`/v1/jobs/${job.json.id}/changes`, { auth: reader }), 404);
    expectProblem(await call("/v1/jobs/job_00000000000000000000000000"), 404);
  });
});
