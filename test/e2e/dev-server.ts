// `npm run dev` as a newcomer starts it, for black-box tests in Node: on free ports, with its own
// state directory (DEV_STATE_DIR, never the developer's .wrangler/), in its own process group
// (stopped by that group's id), its output captured to a file that is printed only when a test of
// the file failed. One server per test file: useDevServer() starts it before the file's tests.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** Migrations, the first key, wrangler's build and start: about 20 s here, more on a busy machine. */
const START_TIMEOUT_MS = 150_000;
const STOP_TIMEOUT_MS = 15_000;
const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));

interface DevServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The local admin key npm run dev made (DEV_STATE_DIR/dev-credentials.json). */
  key: string;
  stateDir: string;
  logFile: string;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** TERM to the whole group (npm, tsx, wrangler, workerd), KILL after STOP_TIMEOUT_MS. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // The group is gone already.
    }
  };
  signal("SIGTERM");
  if ((await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)])) === false) signal("SIGKILL");
}

/**
 * Starts `npm run dev` (extra environment variables in `env`, e.g. DEV_CRON_SECONDS) and resolves
 * once it answers GET /health with its key saved.
 */
async function startDevServer(env: Record<string, string>): Promise<{ server: DevServer; child: ChildProcess }> {
  const stateDir = mkdtempSync(join(tmpdir(), "quiz-e2e-"));
  const logFile = join(stateDir, "npm-run-dev.log");
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const log = openSync(logFile, "a");
  const child = spawn("npm", ["run", "-s", "dev"], {
    cwd: REPOSITORY,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, ...env, PORT: String(port), INSPECTOR_PORT: String(inspectorPort), DEV_STATE_DIR: stateDir },
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const credentials = join(stateDir, "dev-credentials.json");
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (existsSync(credentials) && (await answers(`${url}/health`))) {
      const { key } = JSON.parse(readFileSync(credentials, "utf8")) as { key: string };
      return { server: { url, key, stateDir, logFile }, child };
    }
    await sleep(250);
  }
  await stopGroup(child);
  throw new Error(
    `npm run dev did not answer GET ${url}/health within ${START_TIMEOUT_MS / 1000} s (exit ${child.exitCode}); its output:\n${readFileSync(logFile, "utf8")}`,
  );
}

/**
 * One `npm run dev` for the calling test file: started before its tests, stopped after them by
 * its process group. Quiet when every test passes; when one fails, the server's output is printed.
 */
export function useDevServer(env: Record<string, string> = {}): () => DevServer {
  let running: { server: DevServer; child: ChildProcess } | undefined;
  let failed = false;
  beforeAll(async () => {
    running = await startDevServer(env);
  }, START_TIMEOUT_MS + STOP_TIMEOUT_MS);
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      failed = true;
    });
  });
  afterAll(async () => {
    if (!running) return;
    await stopGroup(running.child);
    const { stateDir, logFile } = running.server;
    if (failed) {
      process.stderr.write(`\n--- npm run dev's output (${logFile}) ---\n${readFileSync(logFile, "utf8")}--- end ---\n`);
    } else {
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, STOP_TIMEOUT_MS + 5_000);
  return () => {
    if (!running) throw new Error("npm run dev is not running");
    return running.server;
  };
}
