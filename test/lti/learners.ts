import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { expect } from "vitest";
import { WakeUps } from "../../src/db/after-commit";
import type { Database } from "../../src/env";
import { recordKeptGrade } from "../../src/lti/ledger";
import { sendWakeUps } from "../../src/worker/after-commit";
import { call } from "../support/call";
import { CLAIM, launch, SCORE_SCOPE, type TestPlatform, unique } from "./platform";

// Learners who launch a quiz from the loopback platform and submit under their launch, and the
// kept-grade changes the grading batch records for them (recordKeptGrade, the ledger's own call).

export const db = drizzle(env.DB) as Database;

export async function newQuiz(): Promise<string> {
  const res = await call("/v1/quizzes", {
    body: { title: unique("LTI quiz"), questions: [{ type: "true_false", prompt: "Is it?", correct: true }] },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

export interface Learner {
  userId: string;
  sub: string;
  launchId: string;
  submissionId: string;
  lineitem: string;
}

/** A launch into the quiz with the line item (score scope granted), and a submission made under it. */
export async function learner(platform: TestPlatform, quizId: string, lineitem: string): Promise<Learner> {
  const sub = unique("person");
  const launched = await launch(
    platform,
    platform.claims({ sub, [CLAIM.custom]: { quiz_id: quizId }, [CLAIM.ags]: { scope: [SCORE_SCOPE], lineitem } }),
  );
  expect(launched.status, launched.text).toBe(200);
  const submission = await call(`/v1/quizzes/${quizId}/submissions`, {
    body: { user_id: launched.json.user_id, lti_launch_id: launched.json.launch_id },
  });
  expect(submission.status, submission.text).toBe(201);
  return { userId: launched.json.user_id, sub, launchId: launched.json.launch_id, submissionId: submission.json.id, lineitem };
}

/** A change of the learner's kept grade, as the grading batch records it. */
export async function keptGrade(
  quizId: string,
  who: Learner,
  points: { earned: number; possible: number },
  options: { needsReview?: boolean; at?: string } = {},
) {
  const wakeUps = new WakeUps();
  await recordKeptGrade(db, wakeUps, {
    quizId,
    userId: who.userId,
    submission: {
      id: who.submissionId,
      pointsEarned: points.earned,
      pointsPossible: points.possible,
      status: options.needsReview ? "needs_review" : "graded",
      changedAt: options.at ?? new Date().toISOString(),
    },
  });
  await sendWakeUps(env, db, wakeUps.take());
}

/** The ledger as GET /v1/lti/passbacks lists it (first 100 rows). */
export async function ledger(query = "") {
  const res = await call(`/v1/lti/passbacks?limit=100${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.passbacks;
}
