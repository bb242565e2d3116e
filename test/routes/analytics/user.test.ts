import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { expectUserAnalyticsMatch, recomputeUserAnalytics } from "../../support/recompute";
import { analytics, createQuiz, createUser, MISSING_USER, scoreRight, tf } from "./fixtures";

describe("GET /v1/analytics/user/{id}", () => {
  it("a user without graded submissions → zeros and nulls", async () => {
    const user = await createUser();
    const empty = {
      user_id: user,
      quizzes_taken: 0,
      avg_score: 0,
      total_attempts: 0,
      min_score: null,
      max_score: null,
      last_graded_at: null,
    };
    expect(await analytics("user", user)).toEqual(empty);
    await scoreRight(await createQuiz([tf()]), user, 1, true);
    expect(await analytics("user", user)).toEqual(empty);
    expectUserAnalyticsMatch(empty, await recomputeUserAnalytics(user));
  });

  it("after graded submissions to several quizzes: equal to a recomputation", async () => {
    const [q1, q2] = [await createQuiz([tf(), tf(), tf()]), await createQuiz([tf(), tf()])];
    const user = await createUser();
    await scoreRight(q1, user, 1);
    await scoreRight(q1, user, 3);
    const last = await scoreRight(q2, user, 1);
    await scoreRight(q2, user, 0, true); // open: not counted
    await scoreRight(q1, await createUser(), 0); // someone else's
    const api = await analytics("user", user);
    expect(api).toEqual({
      user_id: user,
      quizzes_taken: 2,
      avg_score: 61.11, // (33.33 + 100 + 50) / 3
      total_attempts: 3,
      min_score: 33.33,
      max_score: 100,
      last_graded_at: last.graded_at,
    });
    expectUserAnalyticsMatch(api, await recomputeUserAnalytics(user));
  });

  it("unknown, malformed or deleted user → 404", async () => {
    expectProblem(await call(`/v1/analytics/user/${MISSING_USER}`), 404, "not_found");
    expectProblem(await call("/v1/analytics/user/nope"), 404, "not_found");
    const user = await createUser();
    expect((await call(`/v1/users/${user}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/analytics/user/${user}`), 404, "not_found");
  });
});
