import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { call } from "../support/call";
import { newQuiz } from "./learners";
import { CLAIM, newPlatform, type TestPlatform, unique } from "./platform";
import { Browser, checkOf, launchForm, launchRows, login, loginParams, postLaunch, toolLaunch } from "./tool";

// The tool's login and launch (docs/lti.md, "The tool's pages"): GET|POST /lti/login and
// POST /lti/launch through the loopback platform's authorization endpoint, and the 1EdTech
// certification's launch list: each known-bad launch refused by its named check, creating
// nothing; each valid unusual launch accepted.

const LIS = "http://purl.imsglobal.org/vocab/lis/v2/membership#";
let platform: TestPlatform;
let quizId: string;

beforeAll(async () => {
  platform = await newPlatform();
  quizId = await newQuiz();
});

/** A learner's launch into the quiz, the claims changed by `overrides`. */
const claimsFor = (overrides: Record<string, unknown> = {}) =>
  platform.claims({ [CLAIM.custom]: { quiz_id: quizId }, ...overrides });

/** Where an accepted launch landed: the player for a learner, the report for an instructor, or the not-linked page. */
async function landing(res: Response): Promise<"learner" | "instructor" | "not_linked"> {
  const text = await res.clone().text();
  if (res.status === 200 && text.includes("not linked to a quiz yet")) return "not_linked";
  expect(res.status, text).toBe(303);
  const location = res.headers.get("location") ?? "";
  if (/^http:\/\/quiz\.test\/play\/#session=qz_lt_\w+$/.test(location)) return "learner";
  if (/^http:\/\/quiz\.test\/reports\/#session=qz_vt_\w+$/.test(location)) return "instructor";
  throw new Error(`landed at ${location}`);
}

/** The session token of a landing's Location (its fragment). */
const tokenOf = (res: Response) => new URL(res.headers.get("location") ?? "").hash.replace("#session=", "");

describe("GET|POST /lti/login", () => {
  it("→ 302 to the platform's auth_login_url with every parameter, a fresh state and nonce, and the state's cookie", async () => {
    const browser = new Browser();
    const params = await loginParams(platform, { payload: claimsFor() });
    const res = await login(browser, params);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${platform.issuer}/auth`);
    const query = Object.fromEntries(location.searchParams);
    expect(query).toMatchObject({
      scope: "openid",
      response_type: "id_token",
      response_mode: "form_post",
      prompt: "none",
      client_id: platform.clientId,
      redirect_uri: "http://quiz.test/lti/launch",
      login_hint: params.login_hint,
      lti_message_hint: params.lti_message_hint,
    });
    // 32 base62 characters: about 190 bits each.
    expect(query.state).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(query.nonce).toMatch(/^[0-9A-Za-z]{32}$/);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(
      /^__Host-lti-state-[0-9a-f]{16}=[0-9A-Za-z]{32}; Max-Age=600; Path=\/; Secure; HttpOnly; SameSite=None; Partitioned$/,
    );
    // Kept server-side only as hashes: neither the state, the nonce nor the cookie's value is stored.
    const row = await env.DB.prepare("SELECT * FROM lti_login_states WHERE state_hash = ?")
      .bind(await sha256Hex(query.state as string))
      .first();
    expect(row).toMatchObject({ platform_id: platform.id, nonce_hash: await sha256Hex(query.nonce as string), claim: null });
    const stored = JSON.stringify(await env.DB.prepare("SELECT * FROM lti_login_states").all());
    for (const secret of [query.state, query.nonce, [...browser.cookies.values()][0]]) expect(stored).not.toContain(secret);
    const again = new URL((await login(new Browser(), params)).headers.get("location") ?? "");
    expect(again.searchParams.get("state")).not.toBe(query.state);
    expect(again.searchParams.get("nonce")).not.toBe(query.nonce);
  });

  it("a form post (POST) works as the query (GET); lti_message_hint is left out when not sent", async () => {
    const { lti_message_hint: _hint, ...params } = await loginParams(platform, { payload: claimsFor() });
    const res = await new Browser().fetch("/lti/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.searchParams.get("login_hint")).toBe(params.login_hint);
    expect(location.searchParams.has("lti_message_hint")).toBe(false);
  });

  it("an unknown issuer, or one with several registrations and no client_id → 400 page saying so; client_id picks one", async () => {
    const unknown = await new Browser().fetch(
      `/lti/login?${new URLSearchParams({ iss: "https://nobody.example.org", login_hint: "x", target_link_uri: "http://quiz.test/lti/launch" })}`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await checkOf(unknown)).toBe("unknown_issuer");
    expect(await unknown.text()).toContain("not registered");
    const second = await call("/v1/lti/platforms", {
      body: {
        issuer: platform.issuer,
        client_id: unique("client"),
        deployment_ids: ["d"],
        auth_token_url: `${platform.issuer}/token`,
        jwks_url: `${platform.issuer}/jwks`,
        auth_login_url: `${platform.issuer}/auth`,
      },
    });
    expect(second.status, second.text).toBe(201);
    const { client_id: _client, ...params } = await loginParams(platform, { payload: claimsFor() });
    const ambiguous = await new Browser().fetch(`/lti/login?${new URLSearchParams(params)}`);
    expect(ambiguous.status).toBe(400);
    expect(await checkOf(ambiguous)).toBe("ambiguous_issuer");
    const named = await new Browser().fetch(`/lti/login?${new URLSearchParams({ ...params, client_id: second.json.client_id })}`);
    expect(named.status).toBe(302);
    expect(new URL(named.headers.get("location") ?? "").searchParams.get("client_id")).toBe(second.json.client_id);
    const wrongClient = await new Browser().fetch(`/lti/login?${new URLSearchParams({ ...params, client_id: "nobody" })}`);
    expect(await checkOf(wrongClient)).toBe("unknown_issuer");
    await call(`/v1/lti/platforms/${second.json.id}`, { method: "DELETE" });
  });

  it("missing parameters, and a platform without auth_login_url → 400 pages, no state kept", async () => {
    const before = (await env.DB.prepare("SELECT count(*) AS n FROM lti_login_states").first<{ n: number }>())?.n;
    const params = await loginParams(platform, { payload: claimsFor() });
    for (const missing of ["iss", "login_hint", "target_link_uri"] as const) {
      const { [missing]: _gone, ...rest } = params;
      const res = await new Browser().fetch(`/lti/login?${new URLSearchParams(rest)}`);
      expect(res.status).toBe(400);
      expect(await checkOf(res)).toBe("missing_parameter");
    }
    const bare = await newPlatform();
    await call(`/v1/lti/platforms/${bare.id}`, { method: "PATCH", body: { auth_login_url: null } });
    const res = await new Browser().fetch(
      `/lti/login?${new URLSearchParams(await loginParams(bare, { payload: bare.claims() }))}`,
    );
    expect(res.status).toBe(400);
    expect(await checkOf(res)).toBe("no_auth_login_url");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM lti_login_states").first<{ n: number }>())?.n).toBe(before);
  });
});

describe("POST /lti/launch: accepted", () => {
  it("a learner's launch records the launch and its user, and clears the state's cookie", async () => {
    const browser = new Browser();
    const before = await launchRows();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    expect(browser.cookies.size).toBe(1);
    const res = await postLaunch(browser, form);
    expect(await landing(res)).toBe("learner");
    expect(res.headers.get("set-cookie")).toMatch(/^__Host-lti-state-[0-9a-f]{16}=; Max-Age=0;/);
    expect(browser.cookies.size).toBe(0);
    const after = await launchRows();
    expect([after.launches - before.launches, after.users - before.users, after.nonces - before.nonces]).toEqual([1, 1, 1]);
  });

  it("a link to no quiz → 200 page: not linked yet", async () => {
    const { [CLAIM.custom]: _custom, ...claims } = claimsFor();
    const res = await toolLaunch(platform, { payload: claims });
    expect(await landing(res)).toBe("not_linked");
  });

  it("the tool's pages: HTML under the tool's CSP, framable by 'self' and the platform's frame_origins only, no X-Frame-Options", async () => {
    const framed = await newPlatform();
    await call(`/v1/lti/platforms/${framed.id}`, {
      method: "PATCH",
      body: { frame_origins: ["https://school.instructure.com"] },
    });
    const res = await toolLaunch(framed, { payload: framed.claims() });
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'self' https://school.instructure.com");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(await res.text()).not.toMatch(/<script(?![^>]*\bsrc=)/);
    // Other answers still refuse every frame.
    expect((await call("/v1/lti/platforms")).headers.get("x-frame-options")).toBe("DENY");
  });

  // The certification's valid launches with unusual claims (docs/lti.md, "Certification").
  const valid: [string, Record<string, unknown>, "learner" | "instructor"][] = [
    [
      "several roles (Instructor among them)",
      { [CLAIM.roles]: [`${LIS}Learner`, `${LIS}Mentor`, `${LIS}Instructor`] },
      "instructor",
    ],
    ["short role name Learner", { [CLAIM.roles]: ["Learner"] }, "learner"],
    ["short role name Instructor", { [CLAIM.roles]: ["Instructor"] }, "instructor"],
    [
      "a TeachingAssistant sub-role",
      { [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"] },
      "instructor",
    ],
    [
      "an institution Administrator",
      { [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"] },
      "instructor",
    ],
    ["unknown roles (a learner)", { [CLAIM.roles]: ["http://example.org/roles#Wizard", "Janitor"] }, "learner"],
    ["no roles array entries (a learner)", { [CLAIM.roles]: [] }, "learner"],
    ["a new resource_link.id", { [CLAIM.resourceLink]: { id: unique("brand-new-link") } }, "learner"],
  ];
  it.each(valid)("%s", async (_name, overrides, who) => {
    expect(await landing(await toolLaunch(platform, { payload: claimsFor(overrides) }))).toBe(who);
  });

  it("e-mail only, names only, no personal data at all: accepted, the user made from what was sent", async () => {
    const strip = ({ name: _n, email: _e, given_name: _g, family_name: _f, ...rest }: Record<string, unknown>) => rest;
    const cases = [
      { claims: { ...strip(claimsFor()), email: `${unique("only")}@school.example.org` }, name: "", email: true },
      { claims: { ...strip(claimsFor()), given_name: "Grace", family_name: "Hopper" }, name: "Grace Hopper", email: false },
      { claims: strip(claimsFor()), name: "", email: false },
    ];
    for (const { claims, name, email } of cases) {
      const res = await toolLaunch(platform, { payload: claims });
      expect(await landing(res)).toBe("learner");
      const current = await call("/v1/learner-sessions/current", { auth: tokenOf(res) });
      expect(current.status, current.text).toBe(200);
      const user = await call(`/v1/users/${current.json.user.id}`);
      expect(user.json.name).toBe(name);
      expect(user.json.email === null).toBe(!email);
    }
  });
});

describe("POST /lti/launch: where accepted launches land", () => {
  it("a learner → 303 to the player with a learner session for (user, quiz), tied to the launch, return_url from launch_presentation; its submission's grade goes back", async () => {
    const returnUrl = `${platform.issuer}/course/return`;
    const res = await toolLaunch(platform, {
      payload: claimsFor({ "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": { return_url: returnUrl } }),
    });
    expect(await landing(res)).toBe("learner");
    const token = tokenOf(res);
    const current = await call("/v1/learner-sessions/current", { auth: token });
    expect(current.status, current.text).toBe(200);
    expect(current.json.quiz.id).toBe(quizId);
    expect(current.json.session.return_url).toBe(returnUrl);
    const session = await call(`/v1/learner-sessions/${current.json.session.id}`);
    const launch = await env.DB.prepare("SELECT * FROM lti_launches WHERE id = ?")
      .bind(session.json.lti_launch_id)
      .first<{ user_id: string; quiz_id: string }>();
    expect(launch).toMatchObject({ user_id: current.json.user.id, quiz_id: quizId });
    const expiresIn = Date.parse(session.json.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(7_000_000);
    expect(expiresIn).toBeLessThanOrEqual(7_200_000);
    // A submission the player makes with the token is tied to the launch's line item.
    const submission = await call(`/v1/quizzes/${quizId}/submissions`, { body: {}, auth: token });
    expect(submission.status, submission.text).toBe(201);
    const tie = await env.DB.prepare("SELECT launch_id FROM lti_submissions WHERE submission_id = ?")
      .bind(submission.json.id)
      .first();
    expect(tie).toEqual({ launch_id: session.json.lti_launch_id });
  });

  it("a return_url the safe-target rules refuse is left out", async () => {
    const res = await toolLaunch(platform, {
      payload: claimsFor({
        "https://purl.imsglobal.org/spec/lti/claim/launch_presentation": { return_url: "javascript:alert(1)" },
      }),
    });
    const current = await call("/v1/learner-sessions/current", { auth: tokenOf(res) });
    expect(current.json.session.return_url).toBeNull();
  });

  it("an instructor → 303 to the report with a report session for that quiz alone, for at most 8 hours", async () => {
    const res = await toolLaunch(platform, { payload: claimsFor({ [CLAIM.roles]: [`${LIS}Instructor`] }) });
    expect(await landing(res)).toBe("instructor");
    const token = tokenOf(res);
    const quiz = await call(`/v1/quizzes/${quizId}`, { auth: token });
    expect(quiz.status, quiz.text).toBe(200);
    const other = await newQuiz();
    expect((await call(`/v1/quizzes/${other}`, { auth: token })).status).toBe(404);
    const row = await env.DB.prepare("SELECT quiz_ids, expires_at FROM report_sessions ORDER BY created_at DESC LIMIT 1").first<{
      quiz_ids: string;
      expires_at: string;
    }>();
    expect(JSON.parse(row?.quiz_ids ?? "[]")).toEqual([quizId]);
    expect(Date.parse(row?.expires_at ?? "") - Date.now()).toBeLessThanOrEqual(8 * 3600_000);
  });
});

describe("POST /lti/launch: the certification's known-bad launches, each refused by its check, creating nothing", () => {
  const omit =
    (...claims: string[]) =>
    (c: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(c).filter(([k]) => !claims.includes(k)));
  const now = () => Math.floor(Date.now() / 1000);

  /** The form's token signed again by the platform with another header (its own key without a kid, a made-up kid, a stranger's key). */
  async function signedWith(form: { id_token: string; state: string }, header: { kid?: string | null; key?: "stranger" }) {
    const payload = JSON.parse(atob((form.id_token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as Record<
      string,
      unknown
    >;
    return platform.sign(payload, header);
  }

  const claimCases: [string, (c: Record<string, unknown>) => Record<string, unknown>][] = [
    ["wrong_version", (c) => ({ ...c, [CLAIM.version]: "1.1" })],
    ["wrong_version", omit(CLAIM.version)],
    ["wrong_message_type", (c) => ({ ...c, [CLAIM.messageType]: "LtiSomethingElse" })],
    ["wrong_message_type", omit(CLAIM.messageType)],
    ["unknown_deployment", omit(CLAIM.deploymentId)],
    ["missing_sub", omit("sub")],
    ["missing_resource_link", (c) => ({ ...c, [CLAIM.resourceLink]: { title: "no id" } })],
    ["missing_resource_link", omit(CLAIM.resourceLink)],
    ["missing_roles", omit(CLAIM.roles)],
    ["issued_at", (c) => ({ ...c, iat: now() - 3600, exp: now() + 60 })],
    ["issued_at", (c) => ({ ...c, iat: now() + 3600, exp: now() + 7200 })],
    ["expired", (c) => ({ ...c, exp: now() - 60 })],
    ["wrong_audience", (c) => ({ ...c, aud: "someone-else" })],
  ];
  it.each(claimCases)("%s", async (check, breakIt) => {
    const before = await launchRows();
    const res = await toolLaunch(platform, { payload: breakIt(claimsFor()) });
    expect(res.status, await res.clone().text()).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await checkOf(res)).toBe(check);
    expect(await launchRows()).toEqual(before);
  });

  it.each([
    ["missing_kid", { kid: null }],
    ["bad_signature", { kid: "no-such-kid" }],
    ["bad_signature", { key: "stranger" as const }],
  ] as const)("%s", async (check, header) => {
    const browser = new Browser();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    const before = await launchRows();
    const res = await postLaunch(browser, { ...form, id_token: await signedWith(form, header) });
    expect(res.status).toBe(401);
    expect(await checkOf(res)).toBe(check);
    expect(await launchRows()).toEqual(before);
    // The state is still unused: the real token goes through.
    expect(await landing(await postLaunch(browser, form))).toBe("learner");
  });

  it("nonce_mismatch: a token whose nonce is not the state's", async () => {
    const before = await launchRows();
    const res = await toolLaunch(platform, { payload: claimsFor(), keep_nonce: true });
    expect(await checkOf(res)).toBe("nonce_mismatch");
    expect(await launchRows()).toEqual(before);
  });

  it("replayed_nonce: a nonce used before (by a launch through the API) → refused, and the state is spent", async () => {
    const browser = new Browser();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    expect((await call("/v1/lti/launches", { body: { id_token: form.id_token } })).status).toBe(200);
    const before = await launchRows();
    const res = await postLaunch(browser, form);
    expect(res.status).toBe(401);
    expect(await checkOf(res)).toBe("replayed_nonce");
    expect(await launchRows()).toEqual(before);
  });

  it("used_state: the same launch posted twice", async () => {
    const browser = new Browser();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    const cookies = new Map(browser.cookies);
    expect(await landing(await postLaunch(browser, form))).toBe("learner");
    for (const [name, value] of cookies) browser.cookies.set(name, value);
    const before = await launchRows();
    const again = await postLaunch(browser, form);
    expect(again.status).toBe(401);
    expect(await checkOf(again)).toBe("used_state");
    expect(await launchRows()).toEqual(before);
  });

  it("wrong_browser: a state from another browser (its cookie, or none at the top level)", async () => {
    const form = await launchForm(new Browser(), platform, { payload: claimsFor() });
    const other = new Browser();
    await launchForm(other, platform, { payload: claimsFor() });
    // The other browser's cookie is for its own state; give it one under this state's name.
    const name = `__Host-lti-state-${(await sha256Hex(form.state)).slice(0, 16)}`;
    other.cookies.set(name, "A".repeat(32));
    const before = await launchRows();
    const mismatched = await postLaunch(other, form);
    expect(mismatched.status).toBe(401);
    expect(await checkOf(mismatched)).toBe("wrong_browser");
    const none = await postLaunch(new Browser(), form);
    expect(await checkOf(none)).toBe("wrong_browser");
    expect(await launchRows()).toEqual(before);
  });

  it("unknown_state, expired_state, a missing id_token", async () => {
    const browser = new Browser();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    expect(await checkOf(await postLaunch(browser, { ...form, state: "made-up-state" }))).toBe("unknown_state");
    expect(await checkOf(await postLaunch(browser, { id_token: form.id_token }))).toBe("unknown_state");
    expect(await checkOf(await postLaunch(browser, { state: form.state }))).toBe("malformed_token");
    await env.DB.prepare("UPDATE lti_login_states SET expires_at = '2000-01-01T00:00:00.000Z' WHERE state_hash = ?")
      .bind(await sha256Hex(form.state))
      .run();
    const before = await launchRows();
    const expired = await postLaunch(browser, form);
    expect(expired.status).toBe(401);
    expect(await checkOf(expired)).toBe("expired_state");
    expect(await launchRows()).toEqual(before);
  });

  it("a JSON or other body → 415; a field sent twice → 400; a form over 64 KiB → 413", async () => {
    const browser = new Browser();
    const form = await launchForm(browser, platform, { payload: claimsFor() });
    for (const type of ["application/json", "text/plain", "multipart/form-data; boundary=x"]) {
      const res = await browser.fetch("/lti/launch", {
        method: "POST",
        headers: { "content-type": type },
        body: JSON.stringify(form),
      });
      expect(res.status, type).toBe(415);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    }
    const twice = await browser.fetch("/lti/launch", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `${new URLSearchParams(form)}&state=other`,
    });
    expect(twice.status).toBe(400);
    const large = await browser.fetch("/lti/launch", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `${new URLSearchParams(form)}&padding=${"x".repeat(70_000)}`,
    });
    expect(large.status).toBe(413);
    // None of them used the state.
    expect(await landing(await postLaunch(browser, form))).toBe("learner");
  });

  it("a launch whose state the platform replaced (a state of another login of this browser) → nonce_mismatch", async () => {
    const browser = new Browser();
    const first = await launchForm(browser, platform, { payload: claimsFor() });
    const second = await launchForm(browser, platform, { payload: claimsFor() });
    const res = await postLaunch(browser, { id_token: first.id_token, state: second.state });
    expect(await checkOf(res)).toBe("nonce_mismatch");
  });
});

describe("POST /lti/launch: single use under a race", () => {
  it("the same state and token posted 4 times at once, over 15 trials: exactly one accepted each time", async () => {
    for (let trial = 0; trial < 15; trial++) {
      const browser = new Browser();
      const form = await launchForm(browser, platform, { payload: claimsFor() });
      const before = await launchRows();
      const answers = await Promise.all([1, 2, 3, 4].map(() => postLaunch(browser, form)));
      expect(answers.map((a) => a.status).sort(), `trial ${trial}`).toEqual([303, 401, 401, 401]);
      const checks = await Promise.all(answers.filter((a) => a.status === 401).map(checkOf));
      for (const check of checks) expect(["used_state", "replayed_nonce"]).toContain(check);
      expect((await launchRows()).launches - before.launches).toBe(1);
    }
  });
});

describe("POST /lti/launch without the state's cookie, in a frame: completed in a new window", () => {
  it("→ 200 page whose button posts a single-use ticket to /lti/launch/continue (target _blank); nothing is created before", async () => {
    const loginBrowser = new Browser();
    const form = await launchForm(loginBrowser, platform, { payload: claimsFor() });
    const before = await launchRows();
    const framed = await postLaunch(new Browser(), form, { framed: true });
    expect(framed.status).toBe(200);
    const page = await framed.text();
    expect(page).toMatch(/<form method="post" action="\/lti\/launch\/continue" target="_blank">/);
    const ticket = /name="ticket" value="([0-9A-Za-z]{32})"/.exec(page)?.[1] ?? "";
    expect(ticket).not.toBe("");
    const afterPage = await launchRows();
    expect({ ...afterPage, tickets: before.tickets, nonces: before.nonces }).toEqual(before);
    expect(afterPage.tickets - before.tickets).toBe(1);
    // The state is spent: the same post again is refused.
    expect(await checkOf(await postLaunch(new Browser(), form, { framed: true }))).toBe("used_state");

    const continueWith = (site: string, value = ticket) =>
      new Browser().fetch("/lti/launch/continue", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": site, "sec-fetch-dest": "document" },
        body: new URLSearchParams({ ticket: value }).toString(),
      });
    // A ticket carried to another site (a link in an e-mail) is refused, and stays usable.
    for (const site of ["cross-site", "none", "same-site"]) {
      const res = await continueWith(site);
      expect(res.status, site).toBe(403);
      expect(await checkOf(res)).toBe("not_same_origin");
    }
    expect(await landing(await continueWith("same-origin"))).toBe("learner");
    expect((await launchRows()).launches - before.launches).toBe(1);
    const again = await continueWith("same-origin");
    expect(again.status).toBe(401);
    expect(await checkOf(again)).toBe("unknown_ticket");
    expect(await checkOf(await continueWith("same-origin", "x".repeat(32)))).toBe("unknown_ticket");
  });

  it("a ticket spent by two windows at once: exactly one lands, over 10 trials", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const form = await launchForm(new Browser(), platform, { payload: claimsFor() });
      const page = await (await postLaunch(new Browser(), form, { framed: true })).text();
      const ticket = /name="ticket" value="([0-9A-Za-z]{32})"/.exec(page)?.[1] ?? "";
      const answers = await Promise.all(
        [1, 2, 3].map(() =>
          new Browser().fetch("/lti/launch/continue", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
            body: new URLSearchParams({ ticket }).toString(),
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([303, 401, 401]);
    }
  });

  it("a ticket older than 2 minutes is refused", async () => {
    const form = await launchForm(new Browser(), platform, { payload: claimsFor() });
    const page = await (await postLaunch(new Browser(), form, { framed: true })).text();
    const ticket = /name="ticket" value="([0-9A-Za-z]{32})"/.exec(page)?.[1] ?? "";
    await env.DB.prepare("UPDATE lti_tickets SET expires_at = '2000-01-01T00:00:00.000Z' WHERE ticket_hash = ?")
      .bind(await sha256Hex(ticket))
      .run();
    const res = await new Browser().fetch("/lti/launch/continue", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ ticket }).toString(),
    });
    expect(await checkOf(res)).toBe("unknown_ticket");
  });
});

describe("the pages a launch lands on, in the LMS's frame", () => {
  it("/reports/ and /play/ may be framed by the registered platforms' frame_origins (its other directives kept); its files keep their policy", async () => {
    const framed = await newPlatform();
    await call(`/v1/lti/platforms/${framed.id}`, { method: "PATCH", body: { frame_origins: ["https://lms.school.example"] } });
    const page = await new Browser().fetch("/reports/");
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/frame-ancestors 'self'( \S+)* https:\/\/lms\.school\.example/);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toContain("trusted-types 'none'");
    expect(page.headers.get("x-frame-options")).toBeNull();
    const player = await new Browser().fetch("/play/");
    expect(player.status).toBe(200);
    expect(player.headers.get("content-security-policy")).toMatch(/frame-ancestors 'self'( \S+)* https:\/\/lms\.school\.example/);
    expect(player.headers.get("x-frame-options")).toBeNull();
    const script = await new Browser().fetch("/reports/app.js");
    expect(script.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("the cron", () => {
  it("drops login states and tickets past their expiry, and keeps the others", async () => {
    const { sweepLti } = await import("../../src/lti/sweep");
    const { db } = await import("./learners");
    await launchForm(new Browser(), platform, { payload: claimsFor() });
    const framed = await postLaunch(new Browser(), await launchForm(new Browser(), platform, { payload: claimsFor() }), {
      framed: true,
    });
    expect(framed.status).toBe(200);
    const count = async () => ({
      states: (await env.DB.prepare("SELECT count(*) AS n FROM lti_login_states").first<{ n: number }>())?.n,
      tickets: (await env.DB.prepare("SELECT count(*) AS n FROM lti_tickets").first<{ n: number }>())?.n,
    });
    const before = await count();
    expect(before.states).toBeGreaterThan(0);
    expect(before.tickets).toBeGreaterThan(0);
    await sweepLti(env, db, Date.now());
    expect((await count()).states).toBeGreaterThan(0);
    await sweepLti(env, db, Date.now() + 61 * 60_000);
    expect(await count()).toEqual({ states: 0, tickets: 0 });
  });
});
