// Bench-only entry: the app, with env.DB and env.KV wrapped so that their calls are counted
// (test/binding-counter.ts: the same units as the cost tests). Built into its own bundle; the
// production bundle is untouched.
//
// - Every response carries X-Bench-Counts, JSON of the calls made between the request's arrival
//   and its response ({ d1, kvReads, kvWrites, kvDeletes, kvLists, rowsRead }). Exact only when
//   requests come one at a time.
// - GET /__bench/counts: every call since the last reset, including work done after responses
//   (waitUntil: cache fills, rate-limit and usage write-behind), and the SQL text of each prepared
//   statement with how often it was prepared. POST /__bench/reset zeroes them.
// - rowsRead: the rows D1 says it read (meta.rows_read), for statements run with all(), run() or
//   in a batch; raw() and first() answer without meta, so their reads are not in it.
//
// The wrapped env is made once and kept, as the real env is (workerd passes the same env object
// to every request of an isolate), so that isolate caches keyed by binding behave as in production.
import { app } from "../src/app";
import { type CountingEnv, countingEnv } from "../test/binding-counter";

const prepared = new Map<string, number>();
const d1Rows = { rowsRead: 0 };
let counted: { from: Env; env: CountingEnv } | undefined;

type Meta = { meta?: { rows_read?: number } };
const addRows = <T>(result: T): T => {
  d1Rows.rowsRead += (result as Meta | undefined)?.meta?.rows_read ?? 0;
  return result;
};

/** The real statement behind each recording one: D1's batch() takes only its own objects. */
const realStatements = new WeakMap<object, D1PreparedStatement>();

function recordingStatement(stmt: D1PreparedStatement): D1PreparedStatement {
  const wrapped = new Proxy(stmt, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => recordingStatement(target.bind(...values));
      if (prop === "all" || prop === "run") return async () => addRows(await target[prop]());
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  realStatements.set(wrapped, stmt);
  return wrapped;
}

/** Records the SQL of each prepared statement and the rows D1 reports read. */
function recordingD1(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare")
        return (query: string) => {
          prepared.set(query, (prepared.get(query) ?? 0) + 1);
          return recordingStatement(target.prepare(query));
        };
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((s) => realStatements.get(s) ?? s));
          for (const r of results) addRows(r);
          return results;
        };
      // Requests run in D1 sessions: a session's statements are recorded alike.
      if (prop === "withSession")
        return (...args: Parameters<D1Database["withSession"]>) =>
          recordingD1(target.withSession(...args) as unknown as D1Database);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function countingFor(env: Env): CountingEnv {
  if (counted?.from !== env) counted = { from: env, env: countingEnv({ ...env, DB: recordingD1(env.DB) }) };
  return counted.env;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const counting = countingFor(env);
    const { pathname } = new URL(request.url);
    if (pathname === "/__bench/counts")
      return Response.json({ ...counting.counts, ...d1Rows, prepared: Object.fromEntries(prepared) });
    if (pathname === "/__bench/reset") {
      counting.reset();
      d1Rows.rowsRead = 0;
      prepared.clear();
      return new Response(null, { status: 204 });
    }
    const before = { ...counting.counts, ...d1Rows };
    const response = await app.fetch(request, counting.env, ctx);
    const after = { ...counting.counts, ...d1Rows };
    const delta = Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - before[name as keyof typeof before]]));
    const headers = new Headers(response.headers);
    headers.set("x-bench-counts", JSON.stringify(delta));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
} satisfies ExportedHandler<Env>;
