// npm run dev: migrates the local D1, makes sure a local admin key exists, prints it, serves the
// API with wrangler dev on 127.0.0.1:8787, and runs the worker's cron every minute.
//
// Settings (environment variables):
//   PORT             where to serve (default 8787)
//   DEV_STATE_DIR    the directory of this server's state (default .wrangler): the local D1, KV and
//                    queues (DEV_STATE_DIR/state), the local admin key (dev-credentials.json) and the
//                    lock (dev.lock). Another directory is another database: CI and the e2e tests start
//                    their own servers on one, never touching a developer's. While one npm run dev
//                    holds a directory's lock, another refuses to start on it: two workerd processes
//                    must never write the same SQLite files.
//   INSPECTOR_PORT   wrangler dev's debugger port (default 9229); two servers at once need two
//   DEV_CRON_SECONDS how often the cron runs (default 60, as deployed)
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { executeD1, literal, migrate } from "./d1";
import { devState, liveLock } from "./dev-state";
import { createKey } from "./key-create";
import { spawnWrangler } from "./wrangler";

const PORT = process.env.PORT ?? "8787";
const STATE = devState();
const STATE_DIR = STATE.dir;
/** wrangler's own default under .wrangler, so that `npx wrangler d1 execute DB --local` reads the same database. */
const PERSIST_DIR = STATE.persistDir;
// Kept beside the local database it belongs to, so that wiping the directory wipes both.
const CREDENTIALS_FILE = STATE.credentialsFile;
/** Says where this npm run dev serves, while it runs: npm run seed finds it here, whatever the port. */
const LOCK_FILE = STATE.lockFile;
const CRON = "* * * * *";
const CRON_MS = Number(process.env.DEV_CRON_SECONDS || 60) * 1000;

interface DevCredentials {
  id: string;
  key: string;
  scopes: string[];
}

/** The saved key, if the local database still holds it unrevoked. */
function savedKey(): DevCredentials | undefined {
  if (!existsSync(CREDENTIALS_FILE)) return undefined;
  const saved = JSON.parse(readFileSync(CREDENTIALS_FILE, "utf8")) as DevCredentials;
  const rows = executeD1(`SELECT id FROM api_keys WHERE id = ${literal(saved.id)} AND revoked_at IS NULL`, "local", PERSIST_DIR);
  return rows.length > 0 ? saved : undefined;
}

const base = `http://127.0.0.1:${PORT}`;
const running = liveLock(STATE);
if (running) {
  process.stderr.write(
    `npm run dev is already running on ${STATE_DIR} (process ${running.pid}, ${running.url}): stop it, or start this one with another DEV_STATE_DIR (and PORT, INSPECTOR_PORT).\n`,
  );
  process.exit(1);
}
mkdirSync(STATE_DIR, { recursive: true });
// Taken before the migrations, so that npm run seed started meanwhile waits for this server
// instead of opening the same files; given back however this process ends.
writeFileSync(LOCK_FILE, `${JSON.stringify({ pid: process.pid, url: base }, null, 2)}\n`);
process.on("exit", () => rmSync(LOCK_FILE, { force: true }));
migrate("local", PERSIST_DIR);
let credentials = savedKey();
if (!credentials) {
  credentials = await createKey("local admin", ["admin"], "local", PERSIST_DIR);
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

process.stdout.write(`
  Quiz API (local)        ${base}
  API reference           ${base}/docs
  Local admin key         ${credentials.key}
                          (saved in ${CREDENTIALS_FILE}; scopes: ${credentials.scopes.join(" ")})

  export QUIZ_KEY=${credentials.key}
  curl -s ${base}/v1/auth/verify -H "Authorization: Bearer $QUIZ_KEY"

`);

const child = spawnWrangler([
  "dev",
  "--ip",
  "127.0.0.1",
  "--port",
  PORT,
  "--persist-to",
  PERSIST_DIR,
  ...(process.env.INSPECTOR_PORT ? ["--inspector-port", process.env.INSPECTOR_PORT] : []),
  // GET /__scheduled?cron=… runs the cron (served by the bundle scripts/build.ts makes for wrangler dev).
  "--test-scheduled",
  "--show-interactive-dev-session=false",
]);

/**
 * One run of the worker's cron (overdue submissions graded, the outbox swept, stalled jobs resumed),
 * as the platform runs it every minute: wrangler dev never fires Cron Triggers by itself. A run
 * that fails is reported, with what the worker said, and the next one is tried a minute later.
 */
async function runCron(): Promise<void> {
  const url = `${base}/__scheduled?cron=${encodeURIComponent(CRON)}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(CRON_MS) });
    const text = await res.text();
    if (!res.ok) report(`answered ${res.status}: ${text.trim().split("\n").slice(0, 3).join(" | ")}`);
  } catch (error) {
    const cause = error instanceof Error ? (error.cause ?? error.message) : error;
    report(`got no answer (${String(cause)})`);
  }
}

function report(what: string) {
  process.stderr.write(`\n  npm run dev: the cron run at ${new Date().toISOString()} failed: GET /__scheduled ${what}\n\n`);
}

/** Resolves once wrangler dev answers (the first build and start take a few seconds). */
async function serving(): Promise<void> {
  while (child.exitCode === null) {
    try {
      await (await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 500));
    }
  }
}

let cron: NodeJS.Timeout | undefined;
void serving().then(() => {
  cron = setInterval(() => void runCron(), CRON_MS);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => {
  clearInterval(cron);
  process.exit(code ?? 0);
});
