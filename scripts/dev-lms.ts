// npm run dev:lms: npm run dev (scripts/dev.ts) and, beside it, the loopback LTI platform of
// test/lti-platform.ts as a local LMS, registered with the server; prints two course pages of that
// LMS a person can open in a browser — a learner's launch into a sample quiz and an instructor's
// deep-linking request — each framing the tool as Canvas or Moodle would (docs/lti.md).
//
// Settings (environment variables), besides npm run dev's own (PORT, DEV_STATE_DIR, …):
//   LMS_PORT   where the local LMS serves (default 8788)
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prepareLocalLms } from "./dev-lms-setup";
import { devState } from "./dev-state";

const PORT = process.env.PORT ?? "8787";
const LMS_PORT = Number(process.env.LMS_PORT ?? 8788);
const STATE = devState();
/** The sample quiz of an earlier run, kept beside the local database it lives in. */
const LMS_FILE = join(STATE.dir, "dev-lms.json");
const api = `http://127.0.0.1:${PORT}`;
// The browser reaches the tool as localhost and the LMS as 127.0.0.1: two sites, as a real LMS
// and the tool are, so the tool is a third party in the LMS's frame.
const toolOrigin = `http://localhost:${PORT}`;

const dev: ChildProcess = spawn("npm", ["run", "-s", "dev"], { stdio: "inherit", env: process.env, detached: true });
const stop = (signal: NodeJS.Signals) => {
  try {
    if (dev.pid !== undefined) process.kill(-dev.pid, signal);
  } catch {
    // Gone already.
  }
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal));
dev.on("exit", (code) => process.exit(code ?? 0));

async function ready(): Promise<string> {
  for (;;) {
    if (dev.exitCode !== null) process.exit(dev.exitCode);
    try {
      const res = await fetch(`${api}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok && existsSync(STATE.credentialsFile))
        return (JSON.parse(readFileSync(STATE.credentialsFile, "utf8")) as { key: string }).key;
    } catch {
      // Not yet.
    }
    await new Promise((done) => setTimeout(done, 500));
  }
}

const key = await ready();
// Loaded by path: the module is the tests' (typechecked with them, as a vitest global setup), and
// the scripts' compiler settings do not know vitest's types.
const loopback = "../test/lti-platform.ts";
const { startLoopbackPlatform } = (await import(loopback)) as {
  startLoopbackPlatform: (options: { port?: number }) => Promise<{ url: string; close: () => Promise<void> }>;
};
const platform = await startLoopbackPlatform({ port: LMS_PORT });
const earlier = existsSync(LMS_FILE) ? (JSON.parse(readFileSync(LMS_FILE, "utf8")) as { quiz_id?: string }) : {};
const lms = await prepareLocalLms({ api, key, lms: platform.url, toolOrigin, quizId: earlier.quiz_id });
writeFileSync(LMS_FILE, `${JSON.stringify({ quiz_id: lms.quizId }, null, 2)}\n`);
process.stdout.write(`
  Local LMS (loopback LTI platform)   ${platform.url}/p/dev-lms   (registered as ${lms.platformId})

  Open in a browser:
  Learner launch (opens quiz ${lms.quizId} in the player)
    ${lms.learnerUrl}
  Instructor deep linking (the quiz picker; the LMS shows what it received)
    ${lms.instructorUrl}
  Instructor opening the quiz (its report)
    ${lms.instructorReportUrl}

`);
