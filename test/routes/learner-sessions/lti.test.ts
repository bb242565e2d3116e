import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { commit, WakeUps } from "../../../src/db/after-commit";
import { confirmLearnerSession, createLearnerSession } from "../../../src/sessions/learner-sessions";
import { db, learner, newQuiz } from "../../lti/learners";
import { newPlatform, unique } from "../../lti/platform";
import { asLearner } from "./fixtures";

describe("a learner session minted for an LTI launch (createLearnerSession with ltiLaunchId)", () => {
  it("ties the submissions its token starts to the launch's line item, as lti_launch_id does", async () => {
    const platform = await newPlatform();
    const quizId = await newQuiz();
    const taker = await learner(platform, quizId, platform.lineitem(unique("item")));
    const input = {
      userId: taker.userId,
      quizId,
      expiresIn: 600,
      origins: [],
      returnUrl: null,
      ltiLaunchId: taker.launchId,
    };
    const made = await createLearnerSession(db, input);
    await confirmLearnerSession(db, await commit(db, new WakeUps(), made.statements), input);
    expect(made.session.lti_launch_id).toBe(taker.launchId);
    const res = await asLearner(made.token, `/v1/quizzes/${quizId}/submissions`, { method: "POST", body: {} });
    expect(res.status, res.text).toBe(201);
    const tie = await env.DB.prepare("SELECT launch_id, user_id FROM lti_submissions WHERE submission_id = ?")
      .bind((res.json as { id: string }).id)
      .first();
    expect(tie).toEqual({ launch_id: taker.launchId, user_id: taker.userId });
    // Naming another launch with the token is refused.
    const other = await asLearner(made.token, `/v1/quizzes/${quizId}/submissions`, {
      method: "POST",
      body: { lti_launch_id: "ltl_01kamz3f7c9n0p8s6e5vwx2y4r" },
    });
    expect(other.status).toBe(403);
  });

  it("a plain session's submissions have no launch", async () => {
    const quizId = await newQuiz();
    const user = (await env.DB.prepare("SELECT id FROM users WHERE deleted_at IS NULL LIMIT 1").first<{ id: string }>())!.id;
    const input = { userId: user, quizId, expiresIn: 600, origins: [], returnUrl: null };
    const made = await createLearnerSession(db, input);
    await confirmLearnerSession(db, await commit(db, new WakeUps(), made.statements), input);
    const res = await asLearner(made.token, `/v1/quizzes/${quizId}/submissions`, { method: "POST", body: {} });
    expect(res.status, res.text).toBe(201);
    const tie = await env.DB.prepare("SELECT count(*) AS n FROM lti_submissions WHERE submission_id = ?")
      .bind((res.json as { id: string }).id)
      .first<{ n: number }>();
    expect(tie?.n).toBe(0);
  });
});
