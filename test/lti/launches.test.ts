import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/lib/errors";
import { JWKS_MIN_REFETCH_MS } from "../../src/lti/platform-keys";
import { verifyIdToken } from "../../src/lti/verify";
import { call, expectProblem, seedApiKey } from "../support/call";
import { db } from "./learners";
import { CLAIM, launch, newPlatform, SCORE_SCOPE, type TestPlatform, unique } from "./platform";

// POST /v1/lti/launches (docs/lti.md): every check of the id_token, each broken alone in a token
// that passes every other; the user found or created; the quiz from custom.quiz_id or a link.

let platform: TestPlatform;
let quizId: string;

beforeAll(async () => {
  platform = await newPlatform();
  const quiz = await call("/v1/quizzes", {
    body: { title: "LTI quiz", questions: [{ type: "true_false", prompt: "Is it?", correct: true }] },
  });
  expect(quiz.status, quiz.text).toBe(201);
  quizId = quiz.json.id;
});

const now = () => Math.floor(Date.now() / 1000);
/** The check a refused verification names. */
const checkOf = (error: unknown) => (error instanceof ApiError ? String(error.options.members?.check) : `not refused: ${error}`);

describe("POST /v1/lti/launches: a valid launch", () => {
  it("→ 200 with the launch, a user made from the claims, the quiz and the AGS claim", async () => {
    const claims = platform.claims({ [CLAIM.custom]: { quiz_id: quizId } });
    const res = await launch(platform, claims);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      launch_id: expect.stringMatching(/^ltl_[0-9a-z]{26}$/),
      platform_id: platform.id,
      user_id: expect.stringMatching(/^user_/),
      deployment_id: platform.deploymentId,
      roles: claims[CLAIM.roles],
      context: { id: "course-1", label: "BIO 101", title: "Biology" },
      resource_link: claims[CLAIM.resourceLink],
      quiz_id: quizId,
      ags: { lineitem: (claims[CLAIM.ags] as { lineitem: string }).lineitem, scopes: [SCORE_SCOPE] },
    });
    const user = await call(`/v1/users/${res.json.user_id}`);
    expect(user.json).toMatchObject({ name: "Ada Lovelace", email: claims.email, role: "student" });
    const events = await call("/v1/events?type=user.created&limit=100");
    expect(events.json.events.some((e) => e.data.object.id === res.json.user_id)).toBe(true);
  });

  it("finds the same user on the person's next launch, and another for another sub", async () => {
    const sub = unique("person");
    const first = await launch(platform, platform.claims({ sub }));
    const again = await launch(platform, platform.claims({ sub }));
    const other = await launch(platform, platform.claims());
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    expect(again.json.user_id).toBe(first.json.user_id);
    expect(other.json.user_id).not.toBe(first.json.user_id);
  });

  it("concurrent first launches of one person make one user", async () => {
    const sub = unique("person");
    const answers = await Promise.all([1, 2, 3, 4].map(() => launch(platform, platform.claims({ sub }))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json.user_id)).size).toBe(1);
  });

  it("without an e-mail claim the user's email is null; an instructor role makes an instructor", async () => {
    const { email: _email, ...claims } = platform.claims({
      [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
    });
    const res = await launch(platform, claims);
    expect(res.status, res.text).toBe(200);
    const user = await call(`/v1/users/${res.json.user_id}`);
    expect(user.json.email).toBeNull();
    expect(user.json.role).toBe("instructor");
  });

  it("never takes over an account by its e-mail: a taken address is left out", async () => {
    const email = `${unique("grace")}@example.org`;
    const existing = await call("/v1/users", { body: { name: "Grace", email } });
    expect(existing.status).toBe(201);
    const res = await launch(platform, platform.claims({ email: email.toUpperCase() }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.user_id).not.toBe(existing.json.id);
    expect((await call(`/v1/users/${res.json.user_id}`)).json.email).toBeNull();
  });

  it("quiz_id: custom.quiz_id first, else the resource link's link, else null", async () => {
    const linkId = unique("link");
    const unlinked = await launch(platform, platform.claims({ [CLAIM.resourceLink]: { id: linkId } }));
    expect(unlinked.json.quiz_id).toBeNull();
    const put = await call(`/v1/lti/links/${linkId}`, { method: "PUT", body: { platform_id: platform.id, quiz_id: quizId } });
    expect(put.status, put.text).toBe(201);
    const linked = await launch(platform, platform.claims({ [CLAIM.resourceLink]: { id: linkId } }));
    expect(linked.json.quiz_id).toBe(quizId);
    const unknownCustom = await launch(
      platform,
      platform.claims({ [CLAIM.resourceLink]: { id: linkId }, [CLAIM.custom]: { quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" } }),
    );
    expect(unknownCustom.json.quiz_id).toBe(quizId);
  });

  it("a kid the kept key set lacks fetches the platform's JWKS again (the platform rotated), once the last fetch is 30 s old", async () => {
    // The launch's clock is verifyIdToken's to take: the 30 s pass on a virtual one.
    const rotating = await newPlatform();
    const startMs = Date.now();
    const verifyAt = async (token: string, atMs: number) => verifyIdToken(env, db, token, atMs).then(() => "ok", checkOf);
    const fetches = async () => (await rotating.log()).jwks_fetches;
    expect(await verifyAt(await rotating.sign(rotating.claims()), startMs)).toBe("ok");
    expect(await fetches()).toBe(1);
    await rotating.rotate();
    const rotated = await rotating.sign(rotating.claims());
    // Within the interval the kept set stands: the new kid is not the platform's yet.
    expect(await verifyAt(rotated, startMs + JWKS_MIN_REFETCH_MS - 1)).toBe("bad_signature");
    expect(await fetches()).toBe(1);
    expect(await verifyAt(rotated, startMs + JWKS_MIN_REFETCH_MS)).toBe("ok");
    expect(await fetches()).toBe(2);
    // Kept now: the next token with that kid fetches nothing.
    expect(await verifyAt(await rotating.sign(rotating.claims()), startMs + JWKS_MIN_REFETCH_MS + 1)).toBe("ok");
    expect(await fetches()).toBe(2);
  });

  it("30 forged launches with unknown kids fetch the platform's JWKS again at most once; a real launch after them fetches nothing", async () => {
    const attacked = await newPlatform();
    const first = await launch(attacked, attacked.claims());
    expect(first.status, first.text).toBe(200);
    expect((await attacked.log()).jwks_fetches).toBe(1);
    // Forged: no key signed them, their kids are made up; what the issuer and client_id say is public.
    const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    for (let i = 0; i < 30; i++) {
      const forged = `${part({ alg: "RS256", typ: "JWT", kid: `forged-${i}` })}.${part(attacked.claims())}.c2lnbmF0dXJl`;
      const res = await call("/v1/lti/launches", { body: { id_token: forged } });
      expect((expectProblem(res, 401, "invalid_launch") as { check?: string }).check).toBe("bad_signature");
    }
    // At most one: a loaded machine might take the 30 launches past the interval.
    const fetched = (await attacked.log()).jwks_fetches;
    expect(fetched).toBeLessThanOrEqual(2);
    const real = await launch(attacked, attacked.claims());
    expect(real.status, real.text).toBe(200);
    expect((await attacked.log()).jwks_fetches).toBe(fetched);
  });

  it("a JWKS URL that failed is not fetched again within the interval: jwks_unavailable at once", async () => {
    const issuer = `${env.LTI_PLATFORM_URL}/p/${unique("down")}`;
    const registered = await call("/v1/lti/platforms", {
      body: { issuer, client_id: "c", deployment_ids: ["d"], auth_token_url: `${issuer}/token`, jwks_url: `${issuer}/jwks` },
    });
    expect(registered.status, registered.text).toBe(201);
    const token = await platform.sign({ ...platform.claims(), iss: issuer, aud: "c", [CLAIM.deploymentId]: "d" });
    const startMs = Date.now();
    const refusal = (atMs: number) =>
      verifyIdToken(env, db, token, atMs).then(
        () => "accepted",
        (error: Error) => error.message,
      );
    expect(await refusal(startMs)).toContain("jwks_unavailable");
    expect(await refusal(startMs + 1000)).toMatch(/jwks_unavailable.*fetched again at most every 30 s/);
  });

  it("several audiences: azp names the registration, also when the issuer is shared by several of the tool's clients", async () => {
    // A second registration of the same issuer (Canvas Cloud: one issuer, a client per school).
    const second = unique("client");
    const registered = await call("/v1/lti/platforms", {
      body: {
        issuer: platform.issuer,
        client_id: second,
        deployment_ids: [platform.deploymentId],
        auth_token_url: `${platform.issuer}/token`,
        jwks_url: `${platform.issuer}/jwks`,
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const both = [platform.clientId, second];
    for (const [azp, platformId] of [
      [second, registered.json.id],
      [platform.clientId, platform.id],
    ]) {
      const res = await launch(platform, platform.claims({ aud: both, azp }));
      expect(res.status, `azp ${azp}: ${res.text}`).toBe(200);
      expect(res.json.platform_id).toBe(platformId);
    }
    // An audience the tool does not know beside its own is no obstacle once azp names its own.
    const withStranger = await launch(
      platform,
      platform.claims({ aud: ["another-client", platform.clientId], azp: platform.clientId }),
    );
    expect(withStranger.status, withStranger.text).toBe(200);
    const unnamed = expectProblem(await launch(platform, platform.claims({ aud: both })), 401, "invalid_launch");
    expect((unnamed as { check?: string }).check).toBe("wrong_audience");
  });

  it("needs lti:launch", async () => {
    const key = (await seedApiKey(["users:write", "submissions:write"])).key;
    const res = await call("/v1/lti/launches", { body: { id_token: await platform.sign(platform.claims()) }, auth: key });
    expectProblem(res, 403, "insufficient_scope");
    const allowed = (await seedApiKey(["lti:launch"])).key;
    expect(
      (await call("/v1/lti/launches", { body: { id_token: await platform.sign(platform.claims()) }, auth: allowed })).status,
    ).toBe(200);
  });
});

describe("POST /v1/lti/launches: each check, broken alone → 401 invalid_launch naming it", () => {
  const omit = (claim: string) => (c: Record<string, unknown>) => {
    const { [claim]: _gone, ...rest } = c;
    return rest;
  };
  const cases: [string, (c: Record<string, unknown>) => Record<string, unknown>, { key?: "stranger"; kid?: string }?][] = [
    ["unknown_issuer", (c) => ({ ...c, iss: "https://lms.example.org/unknown" })],
    ["wrong_audience", (c) => ({ ...c, aud: "another-client" })],
    ["wrong_audience", (c) => ({ ...c, aud: [c.aud, "another-client"] })],
    ["wrong_audience", (c) => ({ ...c, aud: [c.aud, "another-client"], azp: "another-client" })],
    ["wrong_audience", (c) => ({ ...c, azp: "another-client" })],
    ["wrong_audience", (c) => ({ ...c, aud: ["another-client"], azp: c.aud })],
    ["bad_signature", (c) => c, { key: "stranger" }],
    ["bad_signature", (c) => c, { kid: "no-such-kid" }],
    ["expired", (c) => ({ ...c, exp: now() - 1 })],
    ["expired", omit("exp")],
    ["issued_at", (c) => ({ ...c, iat: now() - 301 })],
    ["issued_at", (c) => ({ ...c, iat: now() + 400 })],
    ["unknown_deployment", (c) => ({ ...c, [CLAIM.deploymentId]: "another-deployment" })],
    ["wrong_message_type", (c) => ({ ...c, [CLAIM.messageType]: "LtiDeepLinkingRequest" })],
    ["wrong_version", (c) => ({ ...c, [CLAIM.version]: "1.1.0" })],
    ["missing_sub", omit("sub")],
    ["missing_resource_link", omit(CLAIM.resourceLink)],
    ["missing_nonce", omit("nonce")],
  ];

  it.each(cases)("%s", async (check, breakIt, options) => {
    const good = platform.claims();
    const res = await launch(platform, breakIt(good), options);
    const problem = expectProblem(res, 401, "invalid_launch");
    expect((problem as { check?: string }).check).toBe(check);
    expect(problem.detail).toContain(check);
    // The same claims unbroken pass every check (the nonce was not used up by the refusal).
    const control = await launch(platform, good);
    expect(control.status, control.text).toBe(200);
  });

  it("replayed_nonce: the same token twice, or another token with a used nonce", async () => {
    const claims = platform.claims();
    const token = await platform.sign(claims);
    expect((await call("/v1/lti/launches", { body: { id_token: token } })).status).toBe(200);
    const replay = expectProblem(await call("/v1/lti/launches", { body: { id_token: token } }), 401, "invalid_launch");
    expect((replay as { check?: string }).check).toBe("replayed_nonce");
    const resigned = expectProblem(await launch(platform, { ...claims, sub: unique("person") }), 401, "invalid_launch");
    expect((resigned as { check?: string }).check).toBe("replayed_nonce");
  });

  it("concurrent launches with one token: exactly one is accepted", async () => {
    const token = await platform.sign(platform.claims());
    const answers = await Promise.all([1, 2, 3].map(() => call("/v1/lti/launches", { body: { id_token: token } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it("malformed_token: not a JWT", async () => {
    const problem = expectProblem(await call("/v1/lti/launches", { body: { id_token: "not-a-jwt" } }), 401, "invalid_launch");
    expect((problem as { check?: string }).check).toBe("malformed_token");
  });

  it("jwks_unavailable: the platform's JWKS URL answers no key set", async () => {
    const issuer = `${env.LTI_PLATFORM_URL}/p/${unique("gone")}`;
    const registered = await call("/v1/lti/platforms", {
      body: { issuer, client_id: "c", deployment_ids: ["d"], auth_token_url: `${issuer}/token`, jwks_url: `${issuer}/jwks` },
    });
    expect(registered.status, registered.text).toBe(201);
    const claims = { ...platform.claims(), iss: issuer, aud: "c", [CLAIM.deploymentId]: "d" };
    const problem = expectProblem(await launch(platform, claims), 401, "invalid_launch");
    expect((problem as { check?: string }).check).toBe("jwks_unavailable");
  });

  it("an unknown field or an empty id_token → 400", async () => {
    expectProblem(await call("/v1/lti/launches", { body: { id_token: "" } }), 400, "validation_failed");
    expectProblem(await call("/v1/lti/launches", { body: { id_token: "x", extra: 1 } }), 400, "validation_failed");
  });
});
