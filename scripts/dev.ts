// npm run dev: migrates the local D1, makes sure a local admin key exists, prints it, and
// serves the API with wrangler dev on 127.0.0.1:8787 (state under .wrangler/).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { executeD1, literal, migrate } from "./d1";
import { createKey } from "./key-create";
import { spawnWrangler } from "./wrangler";

const PORT = process.env.PORT ?? "8787";
// Kept beside the local database it belongs to, so that wiping .wrangler/ wipes both.
const CREDENTIALS_FILE = ".wrangler/dev-credentials.json";
/** Says where this npm run dev serves, while it runs: npm run seed finds it here, whatever the port. */
const LOCK_FILE = ".wrangler/dev.lock";

interface DevCredentials {
  id: string;
  key: string;
  scopes: string[];
}

/** The saved key, if the local database still holds it unrevoked. */
function savedKey(): DevCredentials | undefined {
  if (!existsSync(CREDENTIALS_FILE)) return undefined;
  const saved = JSON.parse(readFileSync(CREDENTIALS_FILE, "utf8")) as DevCredentials;
  const rows = executeD1(`SELECT id FROM api_keys WHERE id = ${literal(saved.id)} AND revoked_at IS NULL`, "local");
  return rows.length > 0 ? saved : undefined;
}

migrate("local");
let credentials = savedKey();
if (!credentials) {
  credentials = await createKey("local admin", ["admin"], "local");
  mkdirSync(".wrangler", { recursive: true });
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

const base = `http://127.0.0.1:${PORT}`;
process.stdout.write(`
  Quiz API (local)        ${base}
  API reference           ${base}/docs
  Local admin key         ${credentials.key}
                          (saved in ${CREDENTIALS_FILE}; scopes: ${credentials.scopes.join(" ")})

  export QUIZ_KEY=${credentials.key}
  curl -s ${base}/v1/auth/verify -H "Authorization: Bearer $QUIZ_KEY"

`);

const child = spawnWrangler(["dev", "--ip", "127.0.0.1", "--port", PORT, "--show-interactive-dev-session=false"]);
writeFileSync(LOCK_FILE, `${JSON.stringify({ pid: process.pid, url: base }, null, 2)}\n`);

// wrangler dev does not fire Cron Triggers by itself: run the worker's cron (deadlines, the
// events sweep) every minute through the handler route it serves, as the platform would.
const CRON_MS = 60_000;
const cron = setInterval(() => {
  fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("* * * * *")}`)
    .then((res) => res.body?.cancel())
    .catch(() => {
      // Not serving yet, or restarting after a change: the next minute's run catches up.
    });
}, CRON_MS);

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => {
  clearInterval(cron);
  rmSync(LOCK_FILE, { force: true });
  process.exit(code ?? 0);
});
