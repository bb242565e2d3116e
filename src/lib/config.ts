import { z } from "zod";

/**
 * The worker's configuration: every var of wrangler.toml's [vars], parsed once per env object.
 * A var that is missing or malformed falls back to its default instead of failing requests: a
 * broken limit or lifetime must neither take the API down nor mint tokens that are dead at birth.
 */

/** A rate limit as configured: its name in the RateLimit headers, requests per window, the window. */
export interface RateLimitPolicy {
  /** "default" for credentials, "anonymous" per IP, "token" for /oauth/*. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** How long the OAuth tokens live, in seconds. */
export interface TokenSettings {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

/** Lines below the level are dropped: "warn" keeps a test run quiet but for what went wrong. */
export const LOG_LEVELS = ["info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** ISSUER without trailing slashes; null when empty: the issuer is then the origin each request came to. */
  issuer: string | null;
  tokens: TokenSettings;
  rateLimits: { default: RateLimitPolicy; anonymous: RateLimitPolicy; token: RateLimitPolicy };
  /** CORS is off while this is empty. */
  corsAllowOrigins: string[];
  logLevel: LogLevel;
  webhooks: WebhookSettings;
  /** LTI 1.3 grade passback (src/lti/): the waits between attempts (a score gets one attempt plus one per delay). */
  lti: { passbackRetryDelaysSeconds: number[] };
  /** How long API-key usage is held in isolate memory before it is written (usage.ts). */
  usageFlushMs: number;
}

/** How events are delivered to webhook endpoints. */
interface WebhookSettings {
  /** The waits between attempts: an event gets 1 + retryDelaysSeconds.length attempts per endpoint. */
  retryDelaysSeconds: number[];
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterSeconds: number;
  /** "allow-loopback" (local development and tests) also admits http://127.0.0.1, [::1] and localhost. */
  urlPolicy: "public" | "allow-loopback";
}

const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const DEFAULT_RATE_LIMIT_REQUESTS = 600;
const DEFAULT_ANONYMOUS_RATE_LIMIT_REQUESTS = 60;
const DEFAULT_TOKEN_RATE_LIMIT_REQUESTS = 60;
const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;
/**
 * Usage must be current within 60 s of the requests it counts (docs/api.md): held at most 55 s, which
 * leaves the write's own time and a late timer well inside the minute (src/auth/usage.ts).
 */
const DEFAULT_USAGE_FLUSH_SECONDS = 55;

/** A positive integer (as `Number()` reads the var: " 5 " and "5.0" are 5), else the fallback. */
const positiveInt = (fallback: number) =>
  z.coerce
    .number()
    .refine((n) => Number.isInteger(n) && n > 0)
    .catch(fallback);

/** A positive finite number of seconds, else the fallback. */
const positiveSeconds = (fallback: number) => z.coerce.number().positive().catch(fallback);

const text = z.string().catch("");

const DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21600, 43200, 86400];
const DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS = 3 * 24 * 3600;
/** Eight attempts over about 23 hours (docs/lti.md: up to 8 attempts over about a day). */
const DEFAULT_LTI_PASSBACK_RETRY_DELAYS_SECONDS = [60, 300, 900, 3600, 7200, 21600, 50400];

/** "30,120,600": whole seconds ≥ 0, at most 20 of them; anything else is the default schedule. */
const retryDelays = (fallback: number[]) =>
  z
    .string()
    .transform((value) =>
      value.trim() === "" ? [] : value.split(",").map((part) => (part.trim() === "" ? Number.NaN : Number(part.trim()))),
    )
    .refine((delays) => delays.length <= 20 && delays.every((n) => Number.isInteger(n) && n >= 0))
    .catch(fallback);

const Vars = z.object({
  ISSUER: text,
  ACCESS_TOKEN_TTL_SECONDS: positiveSeconds(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL_SECONDS: positiveSeconds(DEFAULT_REFRESH_TOKEN_TTL_SECONDS),
  RATE_LIMIT_REQUESTS: positiveInt(DEFAULT_RATE_LIMIT_REQUESTS),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(DEFAULT_RATE_LIMIT_WINDOW_SECONDS),
  ANONYMOUS_RATE_LIMIT_REQUESTS: positiveInt(DEFAULT_ANONYMOUS_RATE_LIMIT_REQUESTS),
  ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS: positiveInt(DEFAULT_RATE_LIMIT_WINDOW_SECONDS),
  TOKEN_RATE_LIMIT_REQUESTS: positiveInt(DEFAULT_TOKEN_RATE_LIMIT_REQUESTS),
  TOKEN_RATE_LIMIT_WINDOW_SECONDS: positiveInt(DEFAULT_RATE_LIMIT_WINDOW_SECONDS),
  CORS_ALLOW_ORIGINS: text,
  LOG_LEVEL: z.enum(LOG_LEVELS).catch("info"),
  WEBHOOK_RETRY_DELAYS_SECONDS: retryDelays(DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS),
  WEBHOOK_DISABLE_AFTER_SECONDS: positiveSeconds(DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS),
  WEBHOOK_URL_POLICY: z.enum(["public", "allow-loopback"]).catch("public"),
  LTI_PASSBACK_RETRY_DELAYS_SECONDS: retryDelays(DEFAULT_LTI_PASSBACK_RETRY_DELAYS_SECONDS),
  USAGE_FLUSH_SECONDS: positiveSeconds(DEFAULT_USAGE_FLUSH_SECONDS)
    .refine((s) => s <= DEFAULT_USAGE_FLUSH_SECONDS)
    .catch(DEFAULT_USAGE_FLUSH_SECONDS),
});

function parse(env: object): Config {
  const vars = Vars.parse(env);
  return {
    issuer: vars.ISSUER === "" ? null : vars.ISSUER.replace(/\/+$/, ""),
    tokens: { accessTtlSeconds: vars.ACCESS_TOKEN_TTL_SECONDS, refreshTtlSeconds: vars.REFRESH_TOKEN_TTL_SECONDS },
    rateLimits: {
      default: { name: "default", limit: vars.RATE_LIMIT_REQUESTS, windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS },
      anonymous: {
        name: "anonymous",
        limit: vars.ANONYMOUS_RATE_LIMIT_REQUESTS,
        windowSeconds: vars.ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS,
      },
      token: { name: "token", limit: vars.TOKEN_RATE_LIMIT_REQUESTS, windowSeconds: vars.TOKEN_RATE_LIMIT_WINDOW_SECONDS },
    },
    corsAllowOrigins: vars.CORS_ALLOW_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    logLevel: vars.LOG_LEVEL,
    webhooks: {
      retryDelaysSeconds: vars.WEBHOOK_RETRY_DELAYS_SECONDS,
      disableAfterSeconds: vars.WEBHOOK_DISABLE_AFTER_SECONDS,
      urlPolicy: vars.WEBHOOK_URL_POLICY,
    },
    lti: { passbackRetryDelaysSeconds: vars.LTI_PASSBACK_RETRY_DELAYS_SECONDS },
    usageFlushMs: vars.USAGE_FLUSH_SECONDS * 1000,
  };
}

/** Workers hands every request of an isolate the same env object, so each is parsed once. */
const parsed = new WeakMap<object, Config>();
/** For callers without an env (app.request in scripts): every default. */
const DEFAULTS = parse({});

/** The configuration the vars of `env` give. */
export function config(env: Partial<Env> | undefined): Config {
  if (!env) return DEFAULTS;
  let found = parsed.get(env);
  if (!found) {
    found = parse(env);
    parsed.set(env, found);
  }
  return found;
}
