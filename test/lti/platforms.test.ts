import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../support/call";
import { newQuiz } from "./learners";
import { unique } from "./platform";

// /v1/lti/platforms and /v1/lti/links (scope admin): registrations, their safe-target URLs,
// pagination, and the resource links that open quizzes.

const base = env.LTI_PLATFORM_URL;
const registration = (overrides: Record<string, unknown> = {}) => {
  const issuer = `https://${unique("lms")}.example.org`;
  return {
    issuer,
    client_id: unique("client"),
    deployment_ids: ["1:abc"],
    auth_token_url: `${base}/p/x/token`,
    jwks_url: `${base}/p/x/jwks`,
    ...overrides,
  };
};

describe("POST /v1/lti/platforms", () => {
  it("→ 201 with an ltp_ id, Location and audience null by default", async () => {
    const body = registration();
    const res = await call("/v1/lti/platforms", { body });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ ...body, id: expect.stringMatching(/^ltp_[0-9a-z]{26}$/), audience: null });
    expect(res.headers.get("location")).toBe(`/v1/lti/platforms/${res.json.id}`);
    expect((await call(`/v1/lti/platforms/${res.json.id}`)).json).toEqual(res.json);
  });

  it("refuses token and JWKS URLs the safe-target rules refuse, naming the field", async () => {
    for (const [field, url] of [
      ["jwks_url", "http://192.168.1.10/jwks"],
      ["auth_token_url", "https://10.0.0.1/token"],
      ["jwks_url", "https://user:pw@lms.example.org/jwks"],
      ["auth_token_url", "ftp://lms.example.org/token"],
      ["jwks_url", "http://[::ffff:7f00:1]/jwks"],
    ] as const) {
      const problem = expectProblem(
        await call("/v1/lti/platforms", { body: registration({ [field]: url }) }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.[0]?.path, url).toBe(field);
      expect(problem.errors?.[0]?.message).not.toContain("Webhook");
    }
  });

  it("auth_login_url and frame_origins: stored and answered; null and [] by default", async () => {
    const plain = await call("/v1/lti/platforms", { body: registration() });
    expect(plain.json).toMatchObject({ auth_login_url: null, frame_origins: [] });
    const fields = {
      auth_login_url: `${base}/p/x/auth`,
      frame_origins: ["https://school.instructure.com", "https://moodle.school.example:8443", "http://localhost:3000"],
    };
    const res = await call("/v1/lti/platforms", { body: registration(fields) });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject(fields);
    const patched = await call(`/v1/lti/platforms/${res.json.id}`, {
      method: "PATCH",
      body: { auth_login_url: null, frame_origins: [] },
    });
    expect(patched.json).toMatchObject({ auth_login_url: null, frame_origins: [] });
  });

  it("refuses an auth_login_url the safe-target rules refuse and frame origins that are not origins, naming the field", async () => {
    for (const [body, path] of [
      [{ auth_login_url: "http://10.1.2.3/auth" }, "auth_login_url"],
      [{ auth_login_url: "https://lms.example.org/auth#x" }, "auth_login_url"],
      [{ auth_login_url: "javascript:alert(1)" }, "auth_login_url"],
      [{ frame_origins: ["https://lms.example.org/"] }, "frame_origins[0]"],
      [{ frame_origins: ["https://ok.example.org", "https://lms.example.org/course"] }, "frame_origins[1]"],
      [{ frame_origins: ["http://lms.example.org"] }, "frame_origins[0]"],
      [{ frame_origins: ["https://*.example.org"] }, "frame_origins[0]"],
      [{ frame_origins: ["https://lms.example.org; script-src *"] }, "frame_origins[0]"],
      [{ frame_origins: ["'self'"] }, "frame_origins[0]"],
    ] as const) {
      const problem = expectProblem(await call("/v1/lti/platforms", { body: registration(body) }), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, JSON.stringify(body)).toBe(path);
    }
    const created = (await call("/v1/lti/platforms", { body: registration() })).json;
    const patch = expectProblem(
      await call(`/v1/lti/platforms/${created.id}`, {
        method: "PATCH",
        body: { frame_origins: ["https://a.example.org", "https://a.example.org"] },
      }),
      400,
      "validation_failed",
    );
    expect(patch.errors?.[0]?.path).toBe("frame_origins");
    const tooMany = Array.from({ length: 11 }, (_, i) => `https://lms${i}.example.org`);
    expectProblem(await call("/v1/lti/platforms", { body: registration({ frame_origins: tooMany }) }), 400, "validation_failed");
  });

  it("the same issuer and client_id twice → 409 lti_platform_exists", async () => {
    const body = registration();
    expect((await call("/v1/lti/platforms", { body })).status).toBe(201);
    expectProblem(await call("/v1/lti/platforms", { body: { ...body, deployment_ids: ["2"] } }), 409, "lti_platform_exists");
    // Another client of the same issuer (Canvas Cloud: one issuer for every school) is another platform.
    expect((await call("/v1/lti/platforms", { body: { ...body, client_id: unique("client") } })).status).toBe(201);
  });

  it("refuses unknown fields, empty deployments, repeated deployments and spaces in ids", async () => {
    for (const body of [
      { ...registration(), extra: true },
      registration({ deployment_ids: [] }),
      registration({ deployment_ids: ["a", "a"] }),
      registration({ client_id: "has space" }),
    ])
      expectProblem(await call("/v1/lti/platforms", { body }), 400, "validation_failed");
  });

  it("needs admin", async () => {
    const key = (await seedApiKey(["lti:launch", "submissions:read"])).key;
    expectProblem(await call("/v1/lti/platforms", { body: registration(), auth: key }), 403, "insufficient_scope");
  });
});

describe("GET, PATCH, DELETE /v1/lti/platforms/{id}", () => {
  it("lists every platform in pages (key platforms, next_cursor, Link)", async () => {
    for (let i = 0; i < 3; i++) expect((await call("/v1/lti/platforms", { body: registration() })).status).toBe(201);
    const seen: string[] = [];
    let path: `/v1/lti/platforms?${string}` = "/v1/lti/platforms?limit=2";
    for (;;) {
      const page = await call(path);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.platforms.map((p: { id: string }) => p.id));
      if (page.json.next_cursor === null) break;
      expect(page.headers.get("link")).toContain('rel="next"');
      path = `/v1/lti/platforms?limit=2&cursor=${page.json.next_cursor}`;
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect([...seen].sort()).toEqual(seen);
    expectProblem(await call("/v1/lti/platforms?cursor=nope"), 400, "validation_failed");
  });

  it("PATCH sets the fields sent; audience null clears it; unsafe URLs and taken identities are refused", async () => {
    const created = (await call("/v1/lti/platforms", { body: registration({ audience: "https://lms.example.org/token" }) })).json;
    const patched = await call(`/v1/lti/platforms/${created.id}`, {
      method: "PATCH",
      body: { deployment_ids: ["1", "2"], audience: null },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ deployment_ids: ["1", "2"], audience: null, issuer: created.issuer });
    expectProblem(
      await call(`/v1/lti/platforms/${created.id}`, { method: "PATCH", body: { jwks_url: "https://169.254.169.254/jwks" } }),
      400,
      "validation_failed",
    );
    const other = (await call("/v1/lti/platforms", { body: registration() })).json;
    expectProblem(
      await call(`/v1/lti/platforms/${created.id}`, {
        method: "PATCH",
        body: { issuer: other.issuer, client_id: other.client_id },
      }),
      409,
      "lti_platform_exists",
    );
    expectProblem(await call(`/v1/lti/platforms/${created.id}`, { method: "PATCH", body: {} }), 400, "validation_failed");
  });

  it("DELETE → 204, then 404; unknown and malformed ids → 404", async () => {
    const created = (await call("/v1/lti/platforms", { body: registration() })).json;
    expect((await call(`/v1/lti/platforms/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/lti/platforms/${created.id}`), 404, "not_found");
    expectProblem(await call(`/v1/lti/platforms/${created.id}`, { method: "DELETE" }), 404, "not_found");
    expectProblem(await call("/v1/lti/platforms/quiz_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });
});

describe("PUT /v1/lti/links/{resource_link_id}", () => {
  it("→ 201 when new, 200 when it replaces; an unknown platform or quiz → 400", async () => {
    const platform = (await call("/v1/lti/platforms", { body: registration() })).json;
    const [quiz, other] = [await newQuiz(), await newQuiz()];
    const link = encodeURIComponent("course 7/week:3");
    const created = await call(`/v1/lti/links/${link}`, { method: "PUT", body: { platform_id: platform.id, quiz_id: quiz } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ resource_link_id: "course 7/week:3", platform_id: platform.id, quiz_id: quiz });
    const replaced = await call(`/v1/lti/links/${link}`, { method: "PUT", body: { platform_id: platform.id, quiz_id: other } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toMatchObject({ quiz_id: other, created_at: created.json.created_at });
    const bad = expectProblem(
      await call(`/v1/lti/links/x`, {
        method: "PUT",
        body: { platform_id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r", quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" },
      }),
      400,
      "validation_failed",
    );
    expect(bad.errors?.map((e) => e.path)).toEqual(["platform_id", "quiz_id"]);
  });
});
