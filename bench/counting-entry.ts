// Bench-only entry: the app, with env.DB and env.KV wrapped so that their calls are counted
// (test/support/binding-counter.ts: the same units as the cost tests) and the queues' sends noted. Built
// into its own bundle; the production bundle is untouched.
//
// - Every response carries X-Bench-Counts, JSON of the calls made between the request's arrival
//   and its response. Exact only when requests come one at a time.
// - GET /__bench/counts: every call since the last reset, including work done after responses
//   (waitUntil), and the SQL text of each prepared statement with how often it was prepared.
//   POST /__bench/reset zeroes them.
// - Counts come in two parts: `own`, the endpoint's work, and `credential`, what any request of
//   the credential costs around it — the API-key lookup (v1:apikey: in KV, api_keys by key_hash
//   in D1), access-token reads (v1:at:), rate-limit counters (v1:rl:) and usage flushes
//   (api_key_usage). The credential's part depends on its request rate, not on the endpoint:
//   POST /__bench/credential plays it on a virtual clock (test/support/credential-simulation.ts).
// - rowsRead / rowsWritten: what D1 reports (meta.rows_read, meta.rows_written) for every
//   statement (rowNoting of test/support/binding-counter.ts: raw() and first() drop meta, the binding's
//   answers hold it).
// - The queues' consumer and the cron run with the same counted bindings when this worker is served
//   as the main worker (the exam-end burst, bench/suite-burst.ts); POST /__bench/scheduled runs the
//   cron's work at once, as its trigger would.
//
// The wrapped env is made once and kept, as the real env is (workerd passes the same env object
// to every request of an isolate), so that isolate caches keyed by binding behave as in production.
import { drizzle } from "drizzle-orm/d1";
import { app } from "../src/app";
import { newApiKey } from "../src/auth/api-keys";
import { apiKeys } from "../src/db/auth-schema";
import type { Database } from "../src/env";
import worker from "../src/index";
import { config } from "../src/lib/config";
import { type CountedCall, type CountingEnv, countingEnv, rowNoting } from "../test/support/binding-counter";
import { simulateCredential } from "../test/support/credential-simulation";
import { emptyTally, type Tally } from "./tally";

const CREDENTIAL_KV = ["v1:apikey:", "v1:rl:"];
/** The key lookup, the usage flush's counts and its re-read of the keys it counted. */
const isCredentialSql = (sql: string) =>
  /api_key_usage|"api_keys"\."key_hash" = \?|"api_keys"\."id" IN \(SELECT value FROM json_each/.test(sql);
const partOfCall = (call: CountedCall): "own" | "credential" =>
  (call.kind === "d1" ? isCredentialSql(call.detail) : CREDENTIAL_KV.some((p) => call.detail.startsWith(p)))
    ? "credential"
    : "own";

const prepared = new Map<string, number>();
/** Rows per part, from D1's answers; queue messages (own work only). */
const rows = { own: emptyTally(), credential: emptyTally() };

/** Records the SQL of each statement prepared (sessions included). */
function preparing(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare")
        return (query: string) => {
          prepared.set(query, (prepared.get(query) ?? 0) + 1);
          return target.prepare(query);
        };
      if (prop === "withSession")
        return (...args: Parameters<D1Database["withSession"]>) =>
          preparing(target.withSession(...args) as unknown as D1Database);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The queue as is, counting the messages sent through it. */
function counting(queue: Queue): Queue {
  return new Proxy(queue, {
    get(target, prop) {
      if (prop === "send")
        return (...args: Parameters<Queue["send"]>) => {
          rows.own.queueMessages += 1;
          return target.send(...args);
        };
      if (prop === "sendBatch")
        return (...args: Parameters<Queue["sendBatch"]>) => {
          rows.own.queueMessages += [...args[0]].length;
          return target.sendBatch(...args);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

let counted: { from: Env; env: CountingEnv } | undefined;

function countingFor(env: Env): CountingEnv {
  if (counted?.from !== env) {
    const wrapped = countingEnv({
      ...env,
      DB: rowNoting(env.DB, (sql, read, written) => {
        const part = isCredentialSql(sql) ? rows.credential : rows.own;
        part.rowsRead += read;
        part.rowsWritten += written;
      }),
      EVENTS_QUEUE: counting(env.EVENTS_QUEUE),
      JOBS_QUEUE: counting(env.JOBS_QUEUE),
    });
    // Outermost: countingEnv copies the binding it is given (to read D1's answers), which would
    // step past a proxy underneath it.
    wrapped.env.DB = preparing(wrapped.env.DB);
    counted = { from: env, env: wrapped };
  }
  return counted.env;
}

/** The calls logged from `from` on, split into the two parts, with the rows and messages noted. */
function tallies(log: readonly CountedCall[], from = 0) {
  const parts = { own: emptyTally(), credential: emptyTally() };
  for (const call of log.slice(from)) parts[partOfCall(call)][call.kind] += 1;
  return parts;
}

const snapshot = (counting: CountingEnv) => {
  const parts = tallies(counting.log);
  for (const part of ["own", "credential"] as const) {
    parts[part].rowsRead = rows[part].rowsRead;
    parts[part].rowsWritten = rows[part].rowsWritten;
    parts[part].queueMessages = rows[part].queueMessages;
  }
  return parts;
};

const minus = (a: Tally, b: Tally): Tally =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - b[k as keyof Tally]])) as unknown as Tally;

/** Plays one credential's traffic (POST /__bench/credential?rate=R&seconds=S&limit=L) and counts it. */
async function credentialTraffic(url: URL, counting: CountingEnv, env: Env) {
  const rate = Number(url.searchParams.get("rate") ?? "1");
  const seconds = Number(url.searchParams.get("seconds") ?? "120");
  const settings = config(env);
  // "api_key": a /v1 caller with an API key; "ip": the token endpoint's per-IP limit alone.
  const kind = url.searchParams.get("kind") === "ip" ? "ip" : "api_key";
  const policy = kind === "ip" ? settings.rateLimits.token : settings.rateLimits.default;
  const limit = Number(url.searchParams.get("limit") ?? policy.limit);
  const { key, row } = await newApiKey({ name: "bench credential", scopes: ["quizzes:read"], expiresAt: null });
  await drizzle(env.DB).insert(apiKeys).values(row);
  const before = snapshot(counting);
  const outcome = await simulateCredential({
    kv: counting.env.KV,
    db: drizzle(counting.env.DB) as Database,
    key,
    keyId: row.id,
    rate,
    seconds,
    policy: { ...policy, limit },
    usageFlushMs: settings.usageFlushMs,
    limiterOnly: kind === "ip",
  });
  const after = snapshot(counting);
  return Response.json({
    ...outcome,
    kind,
    limit,
    windowSeconds: policy.windowSeconds,
    usageFlushMs: settings.usageFlushMs,
    counts: minus(after.credential, before.credential),
  });
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const counting = countingFor(env);
    const url = new URL(request.url);
    if (url.pathname === "/__bench/counts")
      return Response.json({ ...snapshot(counting), prepared: Object.fromEntries(prepared) });
    if (url.pathname === "/__bench/reset") {
      counting.reset();
      rows.own = emptyTally();
      rows.credential = emptyTally();
      prepared.clear();
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/__bench/credential") return credentialTraffic(url, counting, env);
    if (url.pathname === "/__bench/scheduled") {
      const controller = { cron: "* * * * *", scheduledTime: Date.now(), noRetry() {} } satisfies ScheduledController;
      await worker.scheduled(controller, counting.env, ctx);
      return new Response(null, { status: 204 });
    }
    const before = snapshot(counting);
    const response = await app.fetch(request, counting.env, ctx);
    const after = snapshot(counting);
    const delta = { own: minus(after.own, before.own), credential: minus(after.credential, before.credential) };
    const headers = new Headers(response.headers);
    headers.set("x-bench-counts", JSON.stringify(delta));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
  queue: (batch, env, ctx) => worker.queue(batch, countingFor(env).env, ctx),
  scheduled: (controller, env, ctx) => worker.scheduled(controller, countingFor(env).env, ctx),
} satisfies ExportedHandler<Env>;
