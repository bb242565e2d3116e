import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { commit, WakeUps } from "../../../src/db/after-commit";
import { questions, quizzes, submissions } from "../../../src/db/schema";
import type { Database } from "../../../src/env";
import { checkSave, writeSave } from "../../../src/grading/answer-save";
import { planGrade } from "../../../src/grading/grade";
import { call, expectProblem } from "../../support/call";
import { createQuiz, createSubmission, createUser } from "./fixtures";

/**
 * What is graded is what was stored (docs/security.md): a one-answer save racing a grade either
 * lands before the grade's claim and is graded, or finds the submission closed and is refused
 * with 409 — never a 200 whose answer the grade leaves out. Each trial starts a submission with
 * every answer wrong and fires a save of the right answer to each question and one grade, each
 * after a random delay of up to JITTER_MS (started in the same tick, the grade, which has no body
 * to read, would reach D1 first every time). Local D1 seldom lets a request in between another's
 * read and write, so the two narrow windows are also played step by step below.
 */

const TRIALS = 100;
const AT_ONCE = 10;
const JITTER_MS = 12;
const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.random() * JITTER_MS));
const WRONG: unknown[] = ["a", ["c"], false, "Paris", 5];
const RIGHT: unknown[] = ["b", ["a", "b"], true, "Rome", 3.14];

describe("PUT /v1/submissions/{id}/answers/{question_id} racing POST /v1/submissions/{id}/grade", () => {
  it(`${TRIALS} trials: every save answered 200 is graded, every save refused (409) is not`, async () => {
    const quiz = await createQuiz();
    const user = await createUser();
    const outcomes = { graded: 0, refused: 0 };

    async function runTrial() {
      const sub = await createSubmission(
        quiz.id,
        user,
        quiz.questionIds.map((question_id, i) => ({ question_id, response: WRONG[i] })),
      );
      const seq = Date.parse(sub.created_at) + 1;
      const saves = quiz.questionIds.map(
        (questionId, i) => () =>
          call(`/v1/submissions/${sub.id}/answers/${questionId}`, { method: "PUT", body: { response: RIGHT[i], seq: seq + i } }),
      );
      const gradeCall = () => call(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
      const [saveAnswers, first] = await Promise.all([
        Promise.all(saves.map(async (start) => jitter().then(start))),
        jitter().then(gradeCall),
      ]);
      let gradeAnswer = first;
      // Five saves in a row between the grade's read and its claim may make it give up (409
      // answers_changing); the next grade then grades what is stored.
      if (gradeAnswer.status === 409 && gradeAnswer.problem.code === "answers_changing") gradeAnswer = await gradeCall();
      expect(gradeAnswer.status, gradeAnswer.text).toBe(200);

      const results = await call(`/v1/submissions/${sub.id}/results`);
      expect(results.status, results.text).toBe(200);
      const graded = new Map(results.json.answers.map((a) => [a.question_id, a.response]));
      saveAnswers.forEach((res, i) => {
        const questionId = quiz.questionIds[i] as string;
        if (res.status === 200) {
          expect(res.json).toMatchObject({ stale: false, response: RIGHT[i] });
          expect(graded.get(questionId)).toEqual(RIGHT[i]);
          outcomes.graded++;
        } else {
          expect(res.status, res.text).toBe(409);
          expect(res.problem.code).toBe("submission_graded");
          expect(graded.get(questionId)).toEqual(WRONG[i]);
          outcomes.refused++;
        }
      });
      // The stored answers are the graded ones.
      const stored = (await call(`/v1/submissions/${sub.id}`)).json.answers;
      for (const a of stored) expect(a.response).toEqual(graded.get(a.question_id));
    }

    for (let done = 0; done < TRIALS; done += AT_ONCE) {
      await Promise.all(Array.from({ length: AT_ONCE }, runTrial));
    }
    // Both sides of the race were reached, so the check above could have failed either way.
    expect(outcomes.graded).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 120_000);
});

describe("the two windows of the race, step by step", () => {
  const db = drizzle(env.DB) as Database;

  it("a save that lands between a grade's read and its claim makes the claim miss; the grade then counts it", async () => {
    const quiz = await createQuiz();
    const sub = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[2], response: false }]);
    // The grade's read…
    const [row] = await db.select().from(submissions).where(eq(submissions.id, sub.id));
    const [quizRow] = await db.select().from(quizzes).where(eq(quizzes.id, quiz.id));
    const questionRows = await db.select().from(questions).where(eq(questions.quizId, quiz.id)).orderBy(questions.position);
    if (!row || !quizRow) throw new Error("seeded rows missing");
    const plan = planGrade(db, row, quizRow.settings, questionRows, "request");
    // …a save…
    const saved = await call(`/v1/submissions/${sub.id}/answers/${quiz.questionIds[2]}`, {
      method: "PUT",
      body: { response: true, seq: Date.parse(sub.created_at) + 1 },
    });
    expect(saved.status, saved.text).toBe(200);
    // …and the claim, planned from what was read: it changes nothing.
    const [claim] = await commit(db, new WakeUps(), plan.statements);
    expect(claim?.meta.changes).toBe(0);
    expect((await call(`/v1/submissions/${sub.id}`)).json.status).toBe("open");
    const graded = await call(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
    expect(graded.json.points_earned).toBe(1);
    const results = await call(`/v1/submissions/${sub.id}/results`);
    expect(results.json.answers.find((a) => a.question_id === quiz.questionIds[2])?.response).toBe(true);
  });

  it("a grade that claims between a save's read and its write makes the write refuse (409) and change nothing", async () => {
    const quiz = await createQuiz();
    const sub = await createSubmission(quiz.id, await createUser(), [{ question_id: quiz.questionIds[2], response: false }]);
    const input = { response: true, seq: Date.parse(sub.created_at) + 1 };
    await checkSave(db, sub.id, quiz.questionIds[2] as string, input);
    const graded = await call(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
    expect(graded.status, graded.text).toBe(200);
    const before = (await call(`/v1/submissions/${sub.id}`)).json;
    const refused = await writeSave(db, sub.id, quiz.questionIds[2] as string, input).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "submission_graded" });
    expect((await call(`/v1/submissions/${sub.id}`)).json).toEqual(before);
    expect(graded.json.points_earned).toBe(0);
    // Through HTTP the same save is refused by its read.
    expectProblem(
      await call(`/v1/submissions/${sub.id}/answers/${quiz.questionIds[2]}`, { method: "PUT", body: input }),
      409,
      "submission_graded",
    );
  });

  it("a deadline that passes between a save's read and its write makes the write refuse (409 deadline_passed)", async () => {
    const quiz = await createQuiz();
    const sub = await createSubmission(quiz.id, await createUser());
    const input = { response: "b", seq: 1 };
    await checkSave(db, sub.id, quiz.questionIds[0] as string, input);
    await env.DB.prepare("UPDATE submissions SET deadline_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1).toISOString(), sub.id)
      .run();
    const refused = await writeSave(db, sub.id, quiz.questionIds[0] as string, input).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "deadline_passed" });
    expect((await call(`/v1/submissions/${sub.id}`)).json.answers).toEqual([]);
  });
});
