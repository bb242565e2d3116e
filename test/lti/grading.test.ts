import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { BASE, call, defaultKey } from "../support/call";
import { learner, ledger, newQuiz } from "./learners";
import { CLAIM, eventually, launch, newPlatform, SCORE_SCOPE, type ScoreRecord, type TestPlatform, unique } from "./platform";

// The grading process keeps the gradebook (docs/lti.md): a grade, a review and a regrade of a
// submission made under a launch each send the user's kept grade under the quiz's policy, from the
// grading batch itself (no other call), through the real queue to the loopback platform.

async function quiz(questions: unknown[], settings: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: unique("Graded LTI quiz"), questions, settings } });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.id as string, questionIds: res.json.question_ids as string[] };
}

/** A learner launched into the quiz, and their submissions made under that launch. */
async function launchedLearner(platform: TestPlatform, quizId: string) {
  const sub = unique("learner");
  const lineitem = platform.lineitem(unique("item"));
  const launched = await launch(
    platform,
    platform.claims({ sub, [CLAIM.custom]: { quiz_id: quizId }, [CLAIM.ags]: { scope: [SCORE_SCOPE], lineitem } }),
  );
  expect(launched.status, launched.text).toBe(200);
  const submit = async (answers: { question_id: string; response: unknown }[]) => {
    const created = await call(`/v1/quizzes/${quizId}/submissions`, {
      body: { user_id: launched.json.user_id, lti_launch_id: launched.json.launch_id, answers },
    });
    expect(created.status, created.text).toBe(201);
    const graded = await call(`/v1/submissions/${created.json.id}/grade`, { method: "POST" });
    expect(graded.status, graded.text).toBe(200);
    return graded.json as { submission_id: string; graded_at: string | null; points_earned: number };
  };
  return { sub, userId: launched.json.user_id as string, submit };
}

const scoresOf = async (platform: TestPlatform, sub: string): Promise<ScoreRecord[]> =>
  (await platform.log()).scores.filter((s) => s.body.userId === sub);

/** Waits until the platform's last score for `sub` matches, then answers every score it got. */
async function platformHolds(platform: TestPlatform, sub: string, expected: Record<string, unknown>) {
  return eventually(async () => {
    const scores = await scoresOf(platform, sub);
    expect(scores.at(-1)?.body).toMatchObject(expected);
    return scores;
  });
}

describe("grades to the gradebook, from the grading batch", { timeout: 90_000 }, () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await newPlatform();
  });

  it("a grade reaches the platform once, with the points, FullyGraded and the grade's time", async () => {
    const { id, questionIds } = await quiz([
      { type: "true_false", prompt: "One?", correct: true, points: 2 },
      { type: "true_false", prompt: "Two?", correct: true, points: 3 },
    ]);
    const who = await launchedLearner(platform, id);
    const graded = await who.submit([
      { question_id: questionIds[0]!, response: true },
      { question_id: questionIds[1]!, response: false },
    ]);
    const scores = await platformHolds(platform, who.sub, {
      scoreGiven: 2,
      scoreMaximum: 5,
      gradingProgress: "FullyGraded",
      activityProgress: "Completed",
      timestamp: graded.graded_at,
    });
    // Grading again changes nothing and sends nothing more.
    await call(`/v1/submissions/${graded.submission_id}/grade`, { method: "POST" });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await scoresOf(platform, who.sub)).toHaveLength(scores.length);
    expect(scores).toHaveLength(1);
  });

  it("an essay: PendingManual without a score while it waits, then FullyGraded with the review's points", async () => {
    const { id, questionIds } = await quiz([
      { type: "true_false", prompt: "True?", correct: true },
      { type: "essay", prompt: "Explain.", points: 4 },
    ]);
    const who = await launchedLearner(platform, id);
    const graded = await who.submit([
      { question_id: questionIds[0]!, response: true },
      { question_id: questionIds[1]!, response: "Because." },
    ]);
    const pending = await platformHolds(platform, who.sub, { gradingProgress: "PendingManual" });
    expect(pending.at(-1)?.body).not.toHaveProperty("scoreGiven");
    const reviewed = await call(`/v1/submissions/${graded.submission_id}/reviews/${questionIds[1]}`, {
      method: "PUT",
      body: { points: 3 },
    });
    expect(reviewed.status, reviewed.text).toBe(200);
    await platformHolds(platform, who.sub, { gradingProgress: "FullyGraded", scoreGiven: 4, scoreMaximum: 5 });
  });

  const pickA = [
    {
      type: "single_choice",
      prompt: "Pick a.",
      options: [
        { id: "a", text: "A" },
        { id: "b", text: "B" },
      ],
      correct_option_id: "a",
    },
  ];

  it("the kept grade under the policy: highest keeps the better of two attempts", async () => {
    const { id, questionIds } = await quiz(pickA, { grading_policy: "highest" });
    const who = await launchedLearner(platform, id);
    const first = await who.submit([{ question_id: questionIds[0]!, response: "a" }]);
    await platformHolds(platform, who.sub, { scoreGiven: 1, scoreMaximum: 1 });
    await who.submit([{ question_id: questionIds[0]!, response: "b" }]);
    await eventually(async () => expect((await scoresOf(platform, who.sub)).length).toBe(2));
    await platformHolds(platform, who.sub, { scoreGiven: 1 });
    expect((await ledger(`&user_id=${who.userId}`))[0]?.submission_id).toBe(first.submission_id);
  });

  it("a regrade sends the kept grade it makes: latest goes from 0 to 1 when the key moves to the answer given", async () => {
    const { id, questionIds } = await quiz(pickA, { grading_policy: "latest" });
    const who = await launchedLearner(platform, id);
    await who.submit([{ question_id: questionIds[0]!, response: "a" }]);
    await who.submit([{ question_id: questionIds[0]!, response: "b" }]);
    await platformHolds(platform, who.sub, { scoreGiven: 0, scoreMaximum: 1 });
    await call(`/v1/quizzes/${id}/questions/${questionIds[0]}`, { method: "PATCH", body: { correct_option_id: "b" } });
    const job = await call(`/v1/quizzes/${id}/regrade`, { body: { dry_run: false } });
    expect(job.status, job.text).toBe(202);
    await platformHolds(platform, who.sub, { scoreGiven: 1, gradingProgress: "FullyGraded" });
  });
});

describe("a grade's passback, after the answer", { timeout: 90_000 }, () => {
  it("the grade answers while the LTI queue still holds its send back; the ledger row is handed over after the response", async () => {
    const platform = await newPlatform();
    const quizId = await newQuiz();
    const who = await learner(platform, quizId, platform.lineitem(unique("item")));
    // An LTI queue whose sends wait until the test releases them.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: unknown[] = [];
    const holding = async (bodies: unknown[]) => {
      held.push(...bodies);
      await released;
    };
    const LTI_QUEUE = {
      send: (body: unknown) => holding([body]),
      sendBatch: (messages: { body: unknown }[]) => holding(messages.map((m) => m.body)),
    } as unknown as Queue;
    const ctx = createExecutionContext();
    const answered = worker.fetch(
      new Request(`${BASE}/v1/submissions/${who.submissionId}/grade`, {
        method: "POST",
        headers: { authorization: `Bearer ${await defaultKey()}` },
      }),
      { ...env, LTI_QUEUE },
      ctx,
    );
    // Only a guard against waiting forever: a grade that waits for the queue never answers here.
    const deadlock = new Promise<"held back">((resolve) => setTimeout(() => resolve("held back"), 15_000));
    const res = await Promise.race([answered, deadlock]);
    expect(res === "held back" ? res : res.status).toBe(200);
    release();
    await waitOnExecutionContext(ctx);
    const [row] = await ledger(`&user_id=${who.userId}`);
    expect(held).toEqual([{ kind: "lti_passback", passback_id: row?.id }]);
  });
});
