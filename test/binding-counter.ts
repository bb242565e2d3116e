/**
 * Counts what a request costs in binding calls, against the real local D1 and KV (nothing is
 * mocked: every call is forwarded to the real binding).
 *
 *   const counted = countingEnv(env);
 *   const ctx = createExecutionContext();
 *   const res = await app.fetch(new Request(url, init), counted.env, ctx);
 *   const beforeResponse = { ...counted.counts };   // snapshot: what the response waited for
 *   await waitOnExecutionContext(ctx);              // waitUntil work (cache fills, usage flush) …
 *   counted.counts;                                 // … is included from here on
 *   counted.reset();                                // zero every counter
 *
 * What one unit is:
 * - `d1`: one round trip to D1 — a prepared statement executed on its own (`all`, `raw`, `run`,
 *   `first`), one `batch([...])` however many statements it holds, or one `exec`.
 * - `kvReads`: `get` and `getWithMetadata` calls; `kvWrites`: `put`; `kvDeletes`: `delete`;
 *   `kvLists`: `list`.
 *
 * Module state that outlives a request (isolate caches, pending flushes that captured another
 * request's env) is not counted unless it goes through this env; reset between measurements.
 */

export interface BindingCounts {
  d1: number;
  kvReads: number;
  kvWrites: number;
  kvDeletes: number;
  kvLists: number;
}

export interface CountingEnv {
  /** A copy of the env whose DB and KV count their calls; pass it to `app.fetch`. */
  env: Env;
  /** Live counters; copy them (`{ ...counts }`) to keep a value. */
  counts: BindingCounts;
  /** Sets every counter back to 0. */
  reset(): void;
}

const zero = (): BindingCounts => ({ d1: 0, kvReads: 0, kvWrites: 0, kvDeletes: 0, kvLists: 0 });

/**
 * A proxy whose methods run with the real object as `this` (workerd's native bindings refuse
 * to be called on a proxy), with `override` taking precedence for the named methods.
 */
function forward<T extends object>(target: T, override: Record<string, (...args: any[]) => unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === "string" && Object.hasOwn(override, prop)) return override[prop];
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

/** The real statement behind each wrapped one, so that `batch` hands D1 its own objects. */
const realStatements = new WeakMap<object, D1PreparedStatement>();
const unwrap = (stmt: D1PreparedStatement) => realStatements.get(stmt) ?? stmt;

function countingStatement(stmt: D1PreparedStatement, counts: BindingCounts): D1PreparedStatement {
  const executed =
    (method: "all" | "raw" | "run" | "first") =>
    (...args: unknown[]) => {
      counts.d1 += 1;
      return (stmt[method] as (...a: unknown[]) => unknown).apply(stmt, args);
    };
  const wrapped = forward(stmt, {
    // bind returns a new statement: it must count too.
    bind: (...values: unknown[]) => countingStatement(stmt.bind(...values), counts),
    all: executed("all"),
    raw: executed("raw"),
    run: executed("run"),
    first: executed("first"),
  });
  realStatements.set(wrapped, stmt);
  return wrapped;
}

type D1Like = Pick<D1Database, "prepare" | "batch"> & Partial<Pick<D1Database, "exec" | "withSession">>;

function countingD1<T extends D1Like>(db: T, counts: BindingCounts): T {
  return forward(db, {
    prepare: (query: string) => countingStatement(db.prepare(query), counts),
    batch: (statements: D1PreparedStatement[]) => {
      counts.d1 += 1;
      return db.batch(statements.map(unwrap));
    },
    exec: (query: string) => {
      counts.d1 += 1;
      return db.exec!(query);
    },
    withSession: (...args: unknown[]) =>
      countingD1((db.withSession as (...a: unknown[]) => D1DatabaseSession)(...args), counts),
  });
}

function countingKv(kv: KVNamespace, counts: BindingCounts): KVNamespace {
  const counted =
    (method: "get" | "getWithMetadata" | "put" | "delete" | "list", counter: keyof BindingCounts) =>
    (...args: unknown[]) => {
      counts[counter] += 1;
      return (kv[method] as (...a: unknown[]) => unknown).apply(kv, args);
    };
  return forward(kv, {
    get: counted("get", "kvReads"),
    getWithMetadata: counted("getWithMetadata", "kvReads"),
    put: counted("put", "kvWrites"),
    delete: counted("delete", "kvDeletes"),
    list: counted("list", "kvLists"),
  });
}

/** Wraps `env.DB` and `env.KV` so that their calls are counted; every other binding is the same. */
export function countingEnv(env: Env): CountingEnv {
  const counts = zero();
  const wrapped: Env = { ...env, DB: countingD1(env.DB, counts), KV: countingKv(env.KV, counts) };
  return {
    env: wrapped,
    counts,
    reset: () => Object.assign(counts, zero()),
  };
}
