import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../support/call";
import { keptGrade, learner, ledger, newQuiz } from "./learners";
import { CLAIM, eventually, launch, newPlatform, SCORE_SCOPE, type TestPlatform, unique } from "./platform";

// The ledger (GET /v1/lti/passbacks), submissions tied to launches, and the resync job.

let platform: TestPlatform;
let quizId: string;

beforeAll(async () => {
  platform = await newPlatform();
  quizId = await newQuiz();
});

describe("POST /v1/quizzes/{id}/submissions with lti_launch_id", { timeout: 60_000 }, () => {
  it("a launch of another user or another quiz, or none → 400 naming lti_launch_id", async () => {
    const other = await newQuiz();
    const mine = await launch(platform, platform.claims({ [CLAIM.custom]: { quiz_id: quizId } }));
    const someone = await call("/v1/users", { body: { name: "Else", email: `${unique("else")}@example.org` } });
    for (const [quiz, user, launchId] of [
      [quizId, someone.json.id, mine.json.launch_id],
      [other, mine.json.user_id, mine.json.launch_id],
      [quizId, mine.json.user_id, "ltl_01kamz3f7c9n0p8s6e5vwx2y4r"],
    ]) {
      const res = await call(`/v1/quizzes/${quiz}/submissions`, { body: { user_id: user, lti_launch_id: launchId } });
      expect(expectProblem(res, 400, "validation_failed").errors?.[0]?.path).toBe("lti_launch_id");
    }
  });

  it("a launch without the score scope ties nothing: its grades go nowhere", async () => {
    const res = await launch(
      platform,
      platform.claims({ [CLAIM.custom]: { quiz_id: quizId }, [CLAIM.ags]: { scope: [], lineitem: platform.lineitem("x") } }),
    );
    const submission = await call(`/v1/quizzes/${quizId}/submissions`, {
      body: { user_id: res.json.user_id, lti_launch_id: res.json.launch_id },
    });
    expect(submission.status, submission.text).toBe(201);
    await keptGrade(
      quizId,
      { userId: res.json.user_id, submissionId: submission.json.id, sub: "", launchId: "", lineitem: "" },
      { earned: 1, possible: 1 },
    );
    expect(await ledger(`&user_id=${res.json.user_id}`)).toEqual([]);
  });

  it("a user's submissions under two line items send the kept grade to both", async () => {
    const [a, b] = [platform.lineitem(unique("item")), platform.lineitem(unique("item"))];
    const first = await learner(platform, quizId, a);
    const sub = first.sub;
    const second = await launch(
      platform,
      platform.claims({ sub, [CLAIM.custom]: { quiz_id: quizId }, [CLAIM.ags]: { scope: [SCORE_SCOPE], lineitem: b } }),
    );
    expect(second.json.user_id).toBe(first.userId);
    expect(
      (await call(`/v1/quizzes/${quizId}/submissions`, { body: { user_id: first.userId, lti_launch_id: second.json.launch_id } }))
        .status,
    ).toBe(201);
    await keptGrade(quizId, first, { earned: 3, possible: 4 });
    const rows = await eventually(async () => {
      const list = await ledger(`&user_id=${first.userId}`);
      expect(list.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
      return list;
    });
    expect(rows.map((r) => r.lineitem).sort()).toEqual([a, b].sort());
  });
});

describe("GET /v1/lti/passbacks", { timeout: 60_000 }, () => {
  it("filters by status, quiz_id and user_id, and pages", async () => {
    const otherQuiz = await newQuiz();
    const here = await learner(platform, quizId, platform.lineitem(unique("item")));
    const there = await learner(platform, otherQuiz, platform.lineitem(unique("item")));
    await keptGrade(quizId, here, { earned: 1, possible: 2 });
    await keptGrade(otherQuiz, there, { earned: 2, possible: 2 });
    await eventually(async () => expect((await ledger(`&quiz_id=${otherQuiz}&status=succeeded`)).length).toBe(1));
    expect((await ledger(`&quiz_id=${otherQuiz}`)).map((r) => r.user_id)).toEqual([there.userId]);
    expect((await ledger(`&user_id=${here.userId}`)).map((r) => r.quiz_id)).toEqual([quizId]);
    expect(await ledger("&status=failed")).toEqual([]);
    const page = await call("/v1/lti/passbacks?limit=1");
    expect(page.json.passbacks).toHaveLength(1);
    expect(page.json.next_cursor).toEqual(expect.any(String));
    const next = await call(`/v1/lti/passbacks?limit=1&cursor=${page.json.next_cursor}`);
    expect(next.json.passbacks[0]!.id > page.json.passbacks[0]!.id).toBe(true);
    expectProblem(await call("/v1/lti/passbacks?status=lost"), 400, "validation_failed");
    expectProblem(await call("/v1/lti/passbacks?quiz=1"), 400, "validation_failed");
  });

  it("needs submissions:read, which a learner-facing backend may hold without admin", async () => {
    const reader = (await seedApiKey(["submissions:read"])).key;
    expect((await call("/v1/lti/passbacks", { auth: reader })).status).toBe(200);
    const other = (await seedApiKey(["lti:launch"])).key;
    expectProblem(await call("/v1/lti/passbacks", { auth: other }), 403, "insufficient_scope");
  });
});

describe("POST /v1/quizzes/{id}/lti/resync", { timeout: 60_000 }, () => {
  it("→ 202 a job that sends every kept grade of the quiz again", async () => {
    const resynced = await newPlatform();
    const quiz = await newQuiz();
    const learners = await Promise.all([1, 2, 3].map(() => learner(resynced, quiz, resynced.lineitem(unique("item")))));
    for (const [i, who] of learners.entries()) await keptGrade(quiz, who, { earned: i, possible: 3 });
    await eventually(async () => expect((await ledger(`&quiz_id=${quiz}&status=succeeded`)).length).toBe(3));
    const before = (await resynced.log()).scores.length;
    expect(before).toBe(3);

    const res = await call(`/v1/quizzes/${quiz}/lti/resync`, { method: "POST" });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ type: "lti_resync", status: "queued", quiz_id: quiz });
    expect(res.headers.get("location")).toBe(`/v1/jobs/${res.json.id}`);
    await eventually(async () => {
      const job = await call(`/v1/jobs/${res.json.id}`);
      expect(job.json).toMatchObject({ status: "succeeded", progress: { done: 3, total: 3 } });
    });
    await eventually(async () => expect((await resynced.log()).scores.length).toBe(6));
    const bodies = (await resynced.log()).scores.slice(3).map((s) => [s.body.userId, s.body.scoreGiven]);
    expect(bodies.sort()).toEqual(learners.map((who, i) => [who.sub, i]).sort());
    await eventually(async () => expect((await ledger(`&quiz_id=${quiz}&status=succeeded`)).length).toBe(3));
  });

  it("an unknown quiz → 404", async () => {
    expectProblem(await call("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/lti/resync", { method: "POST" }), 404, "not_found");
  });
});
