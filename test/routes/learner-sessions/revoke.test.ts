import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { asLearner, learnerSetup, ORIGIN, sessionEvents } from "./fixtures";

const MISSING = "lse_01kamz3f7c9n0p8s6e5vwx2y4r";

describe("GET /v1/learner-sessions/{id}", () => {
  it("answers the session, never its token or player_url", async () => {
    const { session, token } = await learnerSetup();
    const res = await call(`/v1/learner-sessions/${session.id}`);
    expect(res.status, res.text).toBe(200);
    const { token: _, player_url: __, ...rest } = session;
    expect(res.json).toEqual({ ...rest, revoked_at: null });
    expect(res.text).not.toContain(token.slice(6));
  });

  it("an unknown or malformed id → 404", async () => {
    expectProblem(await call(`/v1/learner-sessions/${MISSING}`), 404);
    expectProblem(await call("/v1/learner-sessions/sub_01kamz3f7c9n0p8s6e5vwx2y4r" as `/v1/learner-sessions/${string}`), 404);
  });
});

describe("DELETE /v1/learner-sessions/{id}", () => {
  it("revokes → 204: the token is refused at once, learner_session.revoked written once, without the token", async () => {
    const { session, token } = await learnerSetup();
    expect((await asLearner(token, "/v1/learner-sessions/current")).status).toBe(200);
    expect((await call(`/v1/learner-sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
    const refused = await asLearner(token, "/v1/learner-sessions/current", { origin: ORIGIN });
    expectProblem(refused, 401, "invalid_token");
    // Revoking again changes nothing.
    expect((await call(`/v1/learner-sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
    const events = await sessionEvents("learner_session.revoked", session.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.object).toMatchObject({ id: session.id, revoked_at: expect.any(String) });
    expect(JSON.stringify(events)).not.toContain(token.slice(6));
    expect((await call(`/v1/learner-sessions/${session.id}`)).json.revoked_at).toEqual(events[0]!.object.revoked_at);
  });

  it("an unknown session → 404", async () => {
    expectProblem(await call(`/v1/learner-sessions/${MISSING}`, { method: "DELETE" }), 404);
  });

  it("revocation racing the token's use, 40 trials: nothing sent after the revocation answered is ever accepted", async () => {
    for (let trial = 0; trial < 40; trial++) {
      const { quiz, session, token } = await learnerSetup();
      const use = () =>
        asLearner(token, `/v1/quizzes/${quiz.id}/submissions`, { method: "POST", body: {} }).then((r) => r.status);
      // Uses in flight while the revocation runs may land either side of it; each is 201 or 401, never anything else.
      const racing = [use(), use()];
      const revoked = call(`/v1/learner-sessions/${session.id}`, { method: "DELETE" });
      racing.push(use());
      expect((await revoked).status).toBe(204);
      for (const status of await Promise.all(racing)) expect([201, 401]).toContain(status);
      // Every use sent after the 204 is refused.
      const after = await Promise.all([use(), use(), asLearner(token, "/v1/learner-sessions/current").then((r) => r.status)]);
      expect(after, `trial ${trial}`).toEqual([401, 401, 401]);
    }
  }, 120_000);
});
