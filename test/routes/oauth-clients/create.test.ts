import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { CLIENT_ID, createClient, expectNeedsAdmin, ISO_MS, randomIp, SECRET, tokensFor, verify } from "./fixtures";

describe("POST /v1/oauth-clients", () => {
  it("registers a client → 201, Location, client_secret shown this once", async () => {
    const res = await call("/v1/oauth-clients", { body: { name: " exporter ", scopes: ["analytics:read"] } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(CLIENT_ID),
      client_id: res.json.id,
      name: "exporter",
      scopes: ["analytics:read"],
      created_at: expect.stringMatching(ISO_MS),
      updated_at: res.json.created_at,
      secret_rotated_at: null,
      client_secret: expect.stringMatching(SECRET),
    });
    expect(res.headers.get("location")).toBe(`/v1/oauth-clients/${res.json.id}`);
  });

  it("the secret gets tokens at /oauth/token, with the client's scopes", async () => {
    const client = await createClient({ scopes: ["users:read", "quizzes:read"] });
    const tokens = await tokensFor(client);
    expect(tokens.scope.split(" ").sort()).toEqual(["quizzes:read", "users:read"]);
    const verified = await verify(tokens.access_token);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json.credential).toMatchObject({ type: "access_token", id: client.id });
    const basic = await call("/oauth/token", {
      auth: false,
      raw: new URLSearchParams({ grant_type: "client_credentials", scope: "users:read" }),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "cf-connecting-ip": randomIp(),
        authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
      },
    });
    expect(basic.status, basic.text).toBe(200);
    expect(basic.json.scope).toBe("users:read");
  });

  it("an unknown scope, no scopes, or a scope twice → 400 naming scopes", async () => {
    for (const scopes of [["quizzes:delete"], [], ["users:read", "users:read"], "admin", undefined]) {
      const problem = expectProblem(await call("/v1/oauth-clients", { body: { name: "x", scopes } }), 400, "validation_failed");
      expect(problem.errors?.[0]?.path, JSON.stringify(scopes)).toMatch(/^scopes/);
    }
  });

  it("a missing, blank or too-long name → 400", async () => {
    for (const name of [undefined, " ", "n".repeat(201)]) {
      const problem = expectProblem(
        await call("/v1/oauth-clients", { body: { name, scopes: ["admin"] } }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
    }
  });

  it("an unknown field → 400 naming it (the secret cannot be chosen by the caller)", async () => {
    const problem = expectProblem(
      await call("/v1/oauth-clients", { body: { name: "x", scopes: ["admin"], client_secret: "qz_cs_mine" } }),
      400,
    );
    expect(problem.errors).toContainEqual({ path: "client_secret", message: expect.any(String) });
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/oauth-clients", { body: { name: "x", scopes: ["quizzes:read"] } });
  });
});
