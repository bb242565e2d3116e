// Serves the built bundle (`npm run build` → dist/index.js) with the Miniflare API, with the
// bindings, vars and compatibility settings wrangler derives from wrangler.toml, on 127.0.0.1
// and a free port. `wrangler dev` puts a proxy in front of workerd that caps throughput (see
// STACK.md), so the seed script and the benchmarks use this instead.
//
// Persistence defaults to .wrangler/state/v3/{d1,kv} (DEV_STATE_DIR/state/v3 when that is set, see
// scripts/dev-state.ts): the same files `wrangler dev` and `wrangler d1 … --local` use (Miniflare names a database's file after its id, so the same id
// is the same file). Pending migrations from drizzle/ are applied first and recorded in
// d1_migrations exactly as `wrangler d1 migrations apply --local` records them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import type { Miniflare, WorkerOptions } from "miniflare";
import { devState } from "./dev-state";
import { QUIET_WRANGLER_ENV } from "./wrangler";

const DEV_PERSIST_ROOT = devState().persistRoot;
export const DEFAULT_SCRIPT = "dist/index.js";
/** wrangler's DEFAULT_MIGRATION_TABLE, and its DDL (`wrangler d1 migrations apply`). */
const MIGRATIONS_TABLE = "d1_migrations";
const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;
const STATEMENT_BREAKPOINT = "--> statement-breakpoint";

/** Another worker served by the same Miniflare, with the same bindings and storage. */
export interface ExtraWorker {
  name: string;
  scriptPath: string;
  /** Requests whose Host header is this host go to this worker (Miniflare routes). */
  host: string;
}

export interface LocalWorkerOptions {
  /** The bundle to serve; default dist/index.js. */
  scriptPath?: string;
  /** Holds d1/ and kv/; default .wrangler/state/v3 (what `wrangler dev` uses; DEV_STATE_DIR moves it). */
  persistRoot?: string;
  /** Vars that override wrangler.toml's [vars]. */
  vars?: Record<string, string>;
  /** Default 0: a free port. */
  port?: number;
  configPath?: string;
  /** Apply pending migrations before serving; default true. */
  migrate?: boolean;
  extraWorkers?: ExtraWorker[];
  /** Drop what the worker writes to stdout (the app logs every request); stderr still shows. */
  quiet?: boolean;
  /** Open workerd's V8 inspector (Chrome DevTools Protocol) on this port (0: a free one; see mf.getInspectorURL()). */
  inspectorPort?: number;
}

export interface LocalWorker {
  /** http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  mf: Miniflare;
  /** Migrations applied by this start (empty when the database was up to date). */
  migrationsApplied: string[];
  dispose(): Promise<void>;
}

/** The modules wrangler itself runs: its own miniflare (one workerd in the tree, always). */
async function loadWrangler() {
  for (const [name, value] of Object.entries(QUIET_WRANGLER_ENV)) process.env[name] ??= value;
  const require = createRequire(import.meta.url);
  const wrangler = await import("wrangler");
  const fromWrangler = createRequire(require.resolve("wrangler/package.json"));
  const miniflare = (await import(pathToFileURL(fromWrangler.resolve("miniflare")).href)) as typeof import("miniflare");
  return { wrangler, miniflare };
}

export async function startLocalWorker(options: LocalWorkerOptions = {}): Promise<LocalWorker> {
  const configPath = resolve(options.configPath ?? "wrangler.toml");
  const scriptPath = resolve(options.scriptPath ?? DEFAULT_SCRIPT);
  if (!existsSync(scriptPath)) throw new Error(`${scriptPath} does not exist: run npm run build first`);
  const persistRoot = resolve(options.persistRoot ?? DEV_PERSIST_ROOT);

  const { wrangler, miniflare } = await loadWrangler();
  const config = wrangler.unstable_readConfig({ config: configPath });
  // Exactly the bindings (vars, D1, KV), compatibility date and flags `wrangler dev` would give the worker.
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(config);
  const base = {
    ...(workerOptions as WorkerOptions),
    bindings: { ...workerOptions.bindings, ...options.vars },
    modules: true,
  } as WorkerOptions;

  const mf = new miniflare.Miniflare({
    host: "127.0.0.1",
    port: options.port ?? 0,
    d1Persist: join(persistRoot, "d1"),
    kvPersist: join(persistRoot, "kv"),
    ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
    ...(options.quiet
      ? {
          handleRuntimeStdio(stdout: Readable, stderr: Readable) {
            stdout.resume();
            stderr.pipe(process.stderr);
          },
        }
      : {}),
    workers: [
      // modulesRoot: module names are paths relative to it, and may not climb out of it.
      { ...base, name: config.name ?? "worker", scriptPath, modulesRoot: dirname(scriptPath) } as WorkerOptions,
      ...(options.extraWorkers ?? []).map((w) => {
        const path = resolve(w.scriptPath);
        // A queue has one consumer: the main worker. Extra workers may produce, not consume.
        const { queueConsumers: _consumers, ...shared } = base;
        return {
          ...shared,
          name: w.name,
          scriptPath: path,
          modulesRoot: dirname(path),
          routes: [`${w.host}/*`],
        } as WorkerOptions;
      }),
    ],
  });
  try {
    const ready = await mf.ready;
    let migrationsApplied: string[] = [];
    if (options.migrate ?? true) {
      const d1 = config.d1_databases[0];
      if (d1) {
        const dir = resolve(dirname(config.configPath ?? configPath), d1.migrations_dir ?? "migrations");
        migrationsApplied = await applyMigrations(
          await mf.getD1Database(d1.binding),
          dir,
          d1.migrations_table ?? MIGRATIONS_TABLE,
        );
      }
    }
    return { url: ready.origin, mf, migrationsApplied, dispose: () => mf.dispose() };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

/**
 * What `wrangler d1 migrations apply --local` does, through the D1 binding: the same table, the
 * same names (file names, sorted), each migration and its record in one atomic batch.
 */
export async function applyMigrations(db: D1Database, dir: string, table = MIGRATIONS_TABLE): Promise<string[]> {
  await db
    .prepare(table === MIGRATIONS_TABLE ? MIGRATIONS_TABLE_DDL : MIGRATIONS_TABLE_DDL.replace(MIGRATIONS_TABLE, table))
    .run();
  const { results } = await db.prepare(`SELECT name FROM ${table} ORDER BY id`).all<{ name: string }>();
  const applied = new Set(results.map((r) => r.name));
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort();
  for (const name of pending) {
    const statements = readFileSync(join(dir, name), "utf8")
      .split(STATEMENT_BREAKPOINT)
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch([...statements.map((s) => db.prepare(s)), db.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(name)]);
  }
  return pending;
}

// npx tsx scripts/local-worker.ts [--persist DIR] [--script FILE] [--port N]: serve until Ctrl-C.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    options: { persist: { type: "string" }, script: { type: "string" }, port: { type: "string" } },
  });
  const worker = await startLocalWorker({
    persistRoot: values.persist,
    scriptPath: values.script,
    port: values.port ? Number(values.port) : undefined,
  });
  if (worker.migrationsApplied.length > 0) process.stdout.write(`applied migrations: ${worker.migrationsApplied.join(", ")}\n`);
  process.stdout.write(`serving ${values.script ?? DEFAULT_SCRIPT} at ${worker.url} (Ctrl-C stops)\n`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => void worker.dispose().then(() => process.exit(0)));
}
