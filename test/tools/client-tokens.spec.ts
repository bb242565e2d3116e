// The typed client's OAuth client-credentials provider: how it authenticates at POST /oauth/token
// (HTTP Basic or the form body), that it keeps one token and renews it before expiry, that many
// callers at once share one token request, and that a 401 invalid_token renews it once.
import { describe, expect, it } from "vitest";
import { clientCredentials, createQuizClient, TokenRequestError } from "../../clients/typescript/index";
import { json, networkError, problem, scriptedFetch } from "./client-fakes";

const BASE = "https://quiz.test/";
const CLIENT = { clientId: "cli_01abc", clientSecret: "s3cret with space&more" };
const token = (access_token: string, expires_in = 3600) =>
  json(200, { access_token, token_type: "Bearer", expires_in, scope: "quizzes:read", refresh_token: "qz_rt_x" });

function manualClock(start = Date.parse("2026-11-26T10:00:00Z")) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

describe("POST /oauth/token", () => {
  it("client_secret_basic (the default): Basic over the form-encoded id and secret, the grant and scope in the body", async () => {
    const fake = scriptedFetch([token("qz_at_1")]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, scope: "quizzes:read", fetch: fake.fetch });
    expect(await provider.getToken()).toBe("qz_at_1");
    const [request] = fake.sent;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("https://quiz.test/oauth/token");
    expect(request?.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    const basic = atob((request?.headers.get("Authorization") ?? "").replace(/^Basic /, ""));
    expect(basic).toBe("cli_01abc:s3cret+with+space%26more");
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: "client_credentials",
      scope: "quizzes:read",
    });
  });

  it("client_secret_post: the id and secret in the body, no Authorization", async () => {
    const fake = scriptedFetch([token("qz_at_1")]);
    await clientCredentials({ baseUrl: BASE, ...CLIENT, authMethod: "client_secret_post", fetch: fake.fetch }).getToken();
    expect(fake.sent[0]?.headers.has("Authorization")).toBe(false);
    expect(Object.fromEntries(new URLSearchParams(fake.sent[0]?.body))).toEqual({
      grant_type: "client_credentials",
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
  });

  it("an error answer throws a TokenRequestError with RFC 6749's code, and is not kept", async () => {
    const refused = json(401, { error: "invalid_client", error_description: "Unknown client." });
    const fake = scriptedFetch([refused, token("qz_at_2")]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch });
    const error = await provider.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ status: 401, error: "invalid_client", errorDescription: "Unknown client." });
    expect(await provider.getToken()).toBe("qz_at_2");
  });

  it("a 429, 503 or network error is retried (a second token would merely expire unused)", async () => {
    const fake = scriptedFetch([
      json(429, { error: "temporarily_unavailable" }, { "Retry-After": "0" }),
      networkError(),
      token("qz_at_1"),
    ]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch, retry: { baseDelayMs: 1 } });
    expect(await provider.getToken()).toBe("qz_at_1");
    expect(fake.sent).toHaveLength(3);
  });
});

describe("the kept token", () => {
  it("is shared by every call until the renewal margin (60 s before expiry)", async () => {
    const clock = manualClock();
    const fake = scriptedFetch([token("qz_at_1"), token("qz_at_2")]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch, now: clock.now });
    expect(await provider.getToken()).toBe("qz_at_1");
    clock.advance(3539);
    expect(await provider.getToken()).toBe("qz_at_1");
    expect(fake.sent).toHaveLength(1);
    clock.advance(2);
    expect(await provider.getToken()).toBe("qz_at_2");
    expect(fake.sent).toHaveLength(2);
  });

  it("of a short lifetime is renewed at half of it at the latest", async () => {
    const clock = manualClock();
    const fake = scriptedFetch([token("qz_at_1", 60), token("qz_at_2", 60)]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch, now: clock.now });
    await provider.getToken();
    clock.advance(29);
    expect(await provider.getToken()).toBe("qz_at_1");
    clock.advance(1);
    expect(await provider.getToken()).toBe("qz_at_2");
  });

  it("is asked for once however many calls need it at the same time", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = scriptedFetch([
      async () => {
        await gate;
        return token("qz_at_1");
      },
    ]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch });
    const waiting = Promise.all(Array.from({ length: 10 }, () => provider.getToken()));
    release();
    expect(new Set(await waiting)).toEqual(new Set(["qz_at_1"]));
    expect(fake.sent).toHaveLength(1);
  });

  it("invalidate drops only the token it names", async () => {
    const fake = scriptedFetch([token("qz_at_1"), token("qz_at_2")]);
    const provider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: fake.fetch });
    await provider.getToken();
    provider.invalidate("qz_at_other");
    expect(await provider.getToken()).toBe("qz_at_1");
    provider.invalidate("qz_at_1");
    expect(await provider.getToken()).toBe("qz_at_2");
  });
});

describe("a client with a token provider", () => {
  const invalidToken = () => problem(401, "invalid_token", { "WWW-Authenticate": 'Bearer realm="quiz", error="invalid_token"' });

  function setUp(apiSteps: Parameters<typeof scriptedFetch>[0], tokens: string[]) {
    const tokenFake = scriptedFetch(tokens.map((t) => token(t)));
    const apiFake = scriptedFetch(apiSteps);
    const tokenProvider = clientCredentials({ baseUrl: BASE, ...CLIENT, fetch: tokenFake.fetch });
    const api = createQuizClient({ baseUrl: BASE, tokenProvider, fetch: apiFake.fetch, retry: { baseDelayMs: 1 } });
    return { api, tokenRequests: tokenFake.sent, apiRequests: apiFake.sent };
  }

  it("sends the token as a Bearer credential", async () => {
    const { api, apiRequests } = setUp([json(200, { quizzes: [], next_cursor: null })], ["qz_at_1"]);
    await api.GET("/v1/quizzes");
    expect(apiRequests[0]?.headers.get("Authorization")).toBe("Bearer qz_at_1");
  });

  it("after a 401 invalid_token renews the token once and sends the request again", async () => {
    const { api, tokenRequests, apiRequests } = setUp(
      [invalidToken(), json(201, { id: "quiz_01" })],
      ["qz_at_revoked", "qz_at_fresh"],
    );
    const { response } = await api.POST("/v1/quizzes", { body: { title: "A" } });
    expect(response.status).toBe(201);
    expect(tokenRequests).toHaveLength(2);
    expect(apiRequests.map((r) => r.headers.get("Authorization"))).toEqual(["Bearer qz_at_revoked", "Bearer qz_at_fresh"]);
    // The same request: same key, same body.
    expect(apiRequests[0]?.headers.get("Idempotency-Key")).toBe(apiRequests[1]?.headers.get("Idempotency-Key"));
    expect(apiRequests[1]?.body).toBe('{"title":"A"}');
  });

  it("answers a second 401 invalid_token in a row as it is, without looping", async () => {
    const { api, tokenRequests, apiRequests } = setUp([invalidToken(), invalidToken()], ["qz_at_1", "qz_at_2"]);
    expect((await api.GET("/v1/quizzes")).response.status).toBe(401);
    expect(tokenRequests).toHaveLength(2);
    expect(apiRequests).toHaveLength(2);
  });

  it("does not renew on a 401 that is not invalid_token, nor on a 403", async () => {
    const missing = problem(401, "unauthorized", { "WWW-Authenticate": 'Bearer realm="quiz"' });
    const { api, tokenRequests } = setUp([missing, problem(403, "insufficient_scope")], ["qz_at_1"]);
    expect((await api.GET("/v1/quizzes")).response.status).toBe(401);
    expect((await api.GET("/v1/quizzes")).response.status).toBe(403);
    expect(tokenRequests).toHaveLength(1);
  });

  it("needs a credential of some kind", () => {
    expect(() => createQuizClient({ baseUrl: BASE, apiKey: "" })).toThrow(TypeError);
  });
});
