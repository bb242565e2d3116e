// Where a local server's state lives, for every script that opens it: npm run dev (scripts/dev.ts),
// npm run seed (scripts/seed.ts) and the walk-through (scripts/walkthrough.sh reads the same two
// files). DEV_STATE_DIR chooses the directory (default .wrangler); another directory is another
// database, so CI and the e2e tests never touch a developer's.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DevState {
  dir: string;
  /** Passed to wrangler dev as --persist-to: wrangler's own default under .wrangler. */
  persistDir: string;
  /** The D1, KV and R2 files themselves (Miniflare's d1Persist and kvPersist are under it). */
  persistRoot: string;
  /** The local admin key npm run dev prints ({ id, key, scopes }). */
  credentialsFile: string;
  /** Written by a running npm run dev: its process id and the URL it serves. */
  lockFile: string;
}

export function devState(env: NodeJS.ProcessEnv = process.env): DevState {
  const dir = env.DEV_STATE_DIR || ".wrangler";
  const persistDir = join(dir, "state");
  return {
    dir,
    persistDir,
    persistRoot: join(persistDir, "v3"),
    credentialsFile: join(dir, "dev-credentials.json"),
    lockFile: join(dir, "dev.lock"),
  };
}

export interface DevLock {
  pid: number;
  url: string;
}

/** The lock of an npm run dev that is still running; a stale lock (its process gone) or none → undefined. */
export function liveLock(state: DevState): DevLock | undefined {
  if (!existsSync(state.lockFile)) return undefined;
  let lock: DevLock;
  try {
    lock = JSON.parse(readFileSync(state.lockFile, "utf8")) as DevLock;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(lock.pid) || lock.pid <= 0) return undefined;
  try {
    process.kill(lock.pid, 0);
    return lock;
  } catch (error) {
    // EPERM: the process exists but is another user's; it still holds the files.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? lock : undefined;
  }
}
