/**
 * Counts what a request costs in binding calls, against the real local D1 and KV (nothing is
 * mocked: every call is forwarded to the real binding).
 *
 *   const counted = countingEnv(env);
 *   const ctx = createExecutionContext();
 *   const res = await app.fetch(new Request(url, init), counted.env, ctx);
 *   const beforeResponse = { ...counted.counts };   // calls made before the response
 *   counted.reset();                                // zero every counter, empty the log
 *   await waitOnExecutionContext(ctx);              // waitUntil work (cache fills, flushes) …
 *   counted.counts;                                 // … counted from the reset on
 *
 * A call counts when it is made: a write handed to waitUntil before the response shows in the
 * "before" snapshot although nothing waited for it. `log` lists each call in order with what it
 * touched (the KV key or list prefix, or the SQL), so that a test can tell one cost from another,
 * e.g. the API key cache read (`v1:apikey:…`) from a rate-limit counter read (`v1:rl:…`).
 *
 * Keep one countingEnv for the requests you compare and reset() between them: module state
 * keyed by the binding object (the rate limiter's in-memory counters) belongs to the wrapped KV,
 * so a fresh countingEnv per request starts that state cold. Work scheduled by an earlier
 * request (a delayed flush) is counted if it runs through this env while you measure.
 *
 * What one unit is:
 * - `d1`: one round trip to D1 — a prepared statement executed on its own (`all`, `raw`, `run`,
 *   `first`), one `batch([...])` however many statements it holds, or one `exec`.
 * - `kvReads`: `get` and `getWithMetadata` calls; `kvWrites`: `put`; `kvDeletes`: `delete`;
 *   `kvLists`: `list`.
 */

export interface BindingCounts {
  d1: number;
  kvReads: number;
  kvWrites: number;
  kvDeletes: number;
  kvLists: number;
}

export interface CountedCall {
  kind: keyof BindingCounts;
  /** The KV key (a list's prefix), or the SQL of a statement; batches list their statements' SQL. */
  detail: string;
  /** D1 statements the call ran: 1, or a batch's length (D1's per-invocation limit counts these). */
  statements?: number;
}

/** D1 statements run by the calls logged: what D1's limit of queries per invocation counts. */
export const d1Statements = (log: readonly CountedCall[]): number =>
  log.reduce((sum, call) => sum + (call.kind === "d1" ? (call.statements ?? 1) : 0), 0);

export interface CountingEnv {
  /** A copy of the env whose DB and KV count their calls; pass it to `app.fetch`. */
  env: Env;
  /** Live counters; copy them (`{ ...counts }`) to keep a value. */
  counts: BindingCounts;
  /** The rows D1 reported read and written (`meta` of every statement, `raw()` and `first()` included). */
  rows: { read: number; written: number };
  /** Every counted call since the last reset, in order. */
  log: CountedCall[];
  /** Sets every counter back to 0 and empties the log. */
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

/** Where the calls of one countingEnv are counted. */
interface Tally {
  counts: BindingCounts;
  log: CountedCall[];
}

const count = (tally: Tally, kind: keyof BindingCounts, detail: string) => {
  tally.counts[kind] += 1;
  tally.log.push({ kind, detail });
};

/** The real statement behind each wrapped one (so that `batch` hands D1 its own objects), and its SQL. */
const realStatements = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();
const unwrap = (stmt: D1PreparedStatement) => realStatements.get(stmt)?.stmt ?? stmt;
const sqlOf = (stmt: D1PreparedStatement) => realStatements.get(stmt)?.sql ?? "?";

function countingStatement(stmt: D1PreparedStatement, sql: string, tally: Tally): D1PreparedStatement {
  const executed =
    (method: "all" | "raw" | "run" | "first") =>
    (...args: unknown[]) => {
      count(tally, "d1", sql);
      return (stmt[method] as (...a: unknown[]) => unknown).apply(stmt, args);
    };
  const wrapped = forward(stmt, {
    // bind returns a new statement: it must count too.
    bind: (...values: unknown[]) => countingStatement(stmt.bind(...values), sql, tally),
    all: executed("all"),
    raw: executed("raw"),
    run: executed("run"),
    first: executed("first"),
  });
  realStatements.set(wrapped, { stmt, sql });
  return wrapped;
}

type D1Like = Pick<D1Database, "prepare" | "batch"> & Partial<Pick<D1Database, "exec" | "withSession">>;

function countingD1<T extends D1Like>(db: T, tally: Tally): T {
  return forward(db, {
    prepare: (query: string) => countingStatement(db.prepare(query), query, tally),
    batch: (statements: D1PreparedStatement[]) => {
      count(tally, "d1", `batch: ${statements.map(sqlOf).join("; ")}`);
      (tally.log.at(-1) as CountedCall).statements = statements.length;
      return db.batch(statements.map(unwrap));
    },
    exec: (query: string) => {
      count(tally, "d1", query);
      return db.exec!(query);
    },
    withSession: (...args: unknown[]) => countingD1((db.withSession as (...a: unknown[]) => D1DatabaseSession)(...args), tally),
  });
}

function countingKv(kv: KVNamespace, tally: Tally): KVNamespace {
  const counted =
    (method: "get" | "getWithMetadata" | "put" | "delete" | "list", kind: keyof BindingCounts) =>
    (...args: unknown[]) => {
      const [first] = args;
      // list takes options ({ prefix }); get takes a key or, in bulk, an array of keys.
      const detail = method === "list" ? String((first as KVNamespaceListOptions | undefined)?.prefix ?? "") : String(first);
      count(tally, kind, detail);
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

type SentStatement = { sql?: string };
type Answer = { meta?: { rows_read?: number; rows_written?: number } };

/**
 * A copy of a D1 binding whose answers are read for the rows D1 reports: `onAnswer` gets each
 * statement's SQL and its `meta.rows_read` and `meta.rows_written`, for every way of running it
 * (`raw()` and `first()` drop meta; the binding's answers hold it). The binding sends statements
 * through its `fetcher` (workerd's D1 API, sessions included): the copy's fetcher is wrapped.
 */
export function rowNoting(
  binding: D1Database,
  onAnswer: (sql: string, rowsRead: number, rowsWritten: number) => void,
): D1Database {
  const clone = <O extends object>(o: O): O => Object.create(Object.getPrototypeOf(o), Object.getOwnPropertyDescriptors(o));
  const copy = clone(binding) as D1Database & { fetcher?: Fetcher; alwaysPrimarySession?: { fetcher?: Fetcher } };
  const real = copy.fetcher;
  if (!real) throw new Error("the D1 binding has no fetcher: its rows cannot be read from its answers");
  const fetcher = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await real.fetch(input, init);
      try {
        const sent = JSON.parse(String(init?.body ?? "null")) as SentStatement | SentStatement[];
        const statements = Array.isArray(sent) ? sent : [sent];
        const answers = (await response.clone().json()) as Answer[] | Answer;
        (Array.isArray(answers) ? answers : [answers]).forEach((answer, i) =>
          onAnswer(statements[i]?.sql ?? "", answer.meta?.rows_read ?? 0, answer.meta?.rows_written ?? 0),
        );
      } catch {
        // Not a query's answer (or not JSON): nothing to note.
      }
      return response;
    },
  } as Fetcher;
  copy.fetcher = fetcher;
  if (copy.alwaysPrimarySession) {
    copy.alwaysPrimarySession = clone(copy.alwaysPrimarySession);
    copy.alwaysPrimarySession.fetcher = fetcher;
  }
  return copy;
}

/** Wraps `env.DB` and `env.KV` so that their calls (and D1's rows) are counted; every other binding is the same. */
export function countingEnv(env: Env): CountingEnv {
  const tally: Tally = { counts: zero(), log: [] };
  const rows = { read: 0, written: 0 };
  const db = rowNoting(env.DB, (_sql, read, written) => {
    rows.read += read;
    rows.written += written;
  });
  const wrapped: Env = { ...env, DB: countingD1(db, tally), KV: countingKv(env.KV, tally) };
  return {
    env: wrapped,
    counts: tally.counts,
    rows,
    get log() {
      return tally.log;
    },
    reset: () => {
      Object.assign(tally.counts, zero());
      Object.assign(rows, { read: 0, written: 0 });
      tally.log = [];
    },
  };
}

/**
 * The queue binding as is, noting the body of each message sent through it: every send still
 * reaches the real queue (and its real consumer); `sent` lists what was sent, in order.
 */
export function notingQueue<Body>(queue: Queue): { queue: Queue; sent: Body[] } {
  const sent: Body[] = [];
  const wrapped = forward(queue, {
    sendBatch: (messages: MessageSendRequest<Body>[], options?: QueueSendBatchOptions) => {
      sent.push(...messages.map((m) => m.body));
      return queue.sendBatch(messages, options);
    },
    send: (body: Body, options?: QueueSendOptions) => {
      sent.push(body);
      return queue.send(body, options);
    },
  });
  return { queue: wrapped, sent };
}
