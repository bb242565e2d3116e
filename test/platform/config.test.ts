import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { config } from "../../src/lib/config";
import { BASE } from "../support/call";

/**
 * What a missing or malformed var falls back to; wrangler.toml's [vars] say the same but for
 * WEBHOOK_URL_POLICY, which local development and the tests set to "allow-loopback".
 */
const DEFAULTS = {
  issuer: null,
  tokens: { accessTtlSeconds: 3600, refreshTtlSeconds: 2_592_000 },
  rateLimits: {
    default: { name: "default", limit: 600, windowSeconds: 60 },
    anonymous: { name: "anonymous", limit: 60, windowSeconds: 60 },
    token: { name: "token", limit: 60, windowSeconds: 60 },
  },
  corsAllowOrigins: [],
  logLevel: "info",
  webhooks: {
    retryDelaysSeconds: [30, 120, 600, 3600, 21600, 43200, 86400],
    disableAfterSeconds: 259_200,
    urlPolicy: "public",
  },
  lti: { passbackRetryDelaysSeconds: [60, 300, 900, 3600, 7200, 21600, 50400] },
  usageFlushMs: 55_000,
};

describe("config", () => {
  it("reads the webhook retry schedule, and falls back to the default on anything malformed", () => {
    expect(config({ WEBHOOK_RETRY_DELAYS_SECONDS: " 5, 10 ,0" }).webhooks.retryDelaysSeconds).toEqual([5, 10, 0]);
    expect(config({ WEBHOOK_RETRY_DELAYS_SECONDS: "" }).webhooks.retryDelaysSeconds).toEqual([]);
    for (const bad of ["5,x", "-1", "1.5", "1,,2", Array(21).fill("1").join(",")])
      expect(config({ WEBHOOK_RETRY_DELAYS_SECONDS: bad }).webhooks.retryDelaysSeconds, bad).toEqual(
        DEFAULTS.webhooks.retryDelaysSeconds,
      );
    expect(config({ WEBHOOK_URL_POLICY: "allow-loopback" }).webhooks.urlPolicy).toBe("allow-loopback");
    expect(config({ WEBHOOK_URL_POLICY: "ALLOW-LOOPBACK" }).webhooks.urlPolicy).toBe("public");
  });

  it("defaults when no var is set, or there is no env at all", () => {
    expect(config({})).toEqual(DEFAULTS);
    expect(config(undefined)).toEqual(DEFAULTS);
  });

  it("reads the test bindings over wrangler.toml's values", () => {
    const parsed = config(env);
    expect(parsed.rateLimits.default.limit).toBe(1_000_000);
    expect(parsed.rateLimits.default.windowSeconds).toBe(60);
    expect(parsed.logLevel).toBe("warn");
    expect(parsed.issuer).toBeNull();
  });

  it("takes each override, and only it", () => {
    const parsed = config({
      ...env,
      RATE_LIMIT_REQUESTS: "5",
      ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS: "10",
      TOKEN_RATE_LIMIT_REQUESTS: "3",
      ACCESS_TOKEN_TTL_SECONDS: "600",
      REFRESH_TOKEN_TTL_SECONDS: "86400",
      LOG_LEVEL: "error",
    });
    expect(parsed.rateLimits.default).toEqual({ name: "default", limit: 5, windowSeconds: 60 });
    expect(parsed.rateLimits.anonymous).toEqual({ name: "anonymous", limit: 1_000_000, windowSeconds: 10 });
    expect(parsed.rateLimits.token).toEqual({ name: "token", limit: 3, windowSeconds: 60 });
    expect(parsed.tokens).toEqual({ accessTtlSeconds: 600, refreshTtlSeconds: 86400 });
    expect(parsed.logLevel).toBe("error");
  });

  it("a malformed limit or window falls back to its default: positive integers only", () => {
    for (const bad of ["", "abc", "0", "-3", "2.5", "Infinity", "NaN"]) {
      const parsed = config({ RATE_LIMIT_REQUESTS: bad, TOKEN_RATE_LIMIT_WINDOW_SECONDS: bad });
      expect(parsed.rateLimits.default.limit, bad).toBe(600);
      expect(parsed.rateLimits.token.windowSeconds, bad).toBe(60);
    }
    // Read as Number() reads it.
    expect(config({ RATE_LIMIT_REQUESTS: " 7 " }).rateLimits.default.limit).toBe(7);
    expect(config({ RATE_LIMIT_REQUESTS: "7.0" }).rateLimits.default.limit).toBe(7);
  });

  it("a malformed token lifetime falls back to its default: any positive finite number of seconds", () => {
    for (const bad of ["", "abc", "0", "-1", "Infinity"]) {
      expect(config({ ACCESS_TOKEN_TTL_SECONDS: bad, REFRESH_TOKEN_TTL_SECONDS: bad }).tokens, bad).toEqual(DEFAULTS.tokens);
    }
    expect(config({ ACCESS_TOKEN_TTL_SECONDS: "90.5" }).tokens.accessTtlSeconds).toBe(90.5);
  });

  it("ISSUER loses its trailing slashes; empty means none", () => {
    expect(config({ ISSUER: "https://quiz.example.com//" }).issuer).toBe("https://quiz.example.com");
    expect(config({ ISSUER: "https://quiz.example.com" }).issuer).toBe("https://quiz.example.com");
    expect(config({ ISSUER: "" }).issuer).toBeNull();
  });

  it("CORS_ALLOW_ORIGINS is a comma-separated list; blanks are dropped", () => {
    expect(config({ CORS_ALLOW_ORIGINS: " https://a.example , ,https://b.example," }).corsAllowOrigins).toEqual([
      "https://a.example",
      "https://b.example",
    ]);
    expect(config({ CORS_ALLOW_ORIGINS: " , " }).corsAllowOrigins).toEqual([]);
  });

  it("an unknown LOG_LEVEL is info", () => {
    for (const bad of ["debug", "INFO", "", "verbose"]) expect(config({ LOG_LEVEL: bad }).logLevel, bad).toBe("info");
    expect(config({ LOG_LEVEL: "warn" }).logLevel).toBe("warn");
  });

  it("is parsed once per env object", () => {
    const vars = { ...env, RATE_LIMIT_REQUESTS: "9" };
    expect(config(vars)).toBe(config(vars));
    const other = { ...vars };
    expect(config(other)).not.toBe(config(vars));
    expect(config(other)).toEqual(config(vars));
  });
});

describe("the request log and LOG_LEVEL", () => {
  afterEach(() => vi.restoreAllMocks());

  async function requestLines(vars: Partial<Env>) {
    const lines: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => lines.push(line));
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}/health`, { headers: { "X-Request-Id": "log-test" } }),
      { ...env, ...vars },
      ctx,
    );
    await res.text();
    await waitOnExecutionContext(ctx);
    return lines.map((line) => JSON.parse(String(line)));
  }

  it("writes one JSON line per request at info", async () => {
    expect(await requestLines({ LOG_LEVEL: "info" })).toEqual([
      {
        level: "info",
        message: "request",
        request_id: "log-test",
        method: "GET",
        route: "/health",
        status: 200,
        duration_ms: expect.any(Number),
        credential_id: null,
        credential_type: null,
      },
    ]);
  });

  it("writes none at warn (the tests' level)", async () => {
    expect(await requestLines({})).toEqual([]);
    expect(await requestLines({ LOG_LEVEL: "warn" })).toEqual([]);
  });
});
