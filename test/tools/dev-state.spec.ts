// One npm run dev per state directory, and npm run seed never beside it on the same files: a
// second npm run dev on a directory whose dev.lock names a running process refuses to start and
// leaves the lock alone; npm run seed on such a directory seeds through that server or not at all,
// and never opens the directory's database itself. DEV_STATE_DIR chooses the directory for both.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { devState, liveLock } from "../../scripts/dev-state";

const dirs: string[] = [];
const children: ChildProcess[] = [];

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "dev-state-"));
  dirs.push(dir);
  return dir;
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

/** A tsx script in a process group of its own; resolves on exit or after `ms` (then the group is killed). */
function runScript(script: string, env: Record<string, string>, ms: number) {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((done) => {
    const timer = setTimeout(() => {
      kill(child);
      done({ code: null, output });
    }, ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

function kill(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

afterEach(() => {
  for (const child of children.splice(0)) kill(child);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("devState and liveLock (scripts/dev-state.ts)", () => {
  it("puts the database, the key and the lock under DEV_STATE_DIR, .wrangler by default", () => {
    expect(devState({})).toEqual({
      dir: ".wrangler",
      persistDir: join(".wrangler", "state"),
      persistRoot: join(".wrangler", "state", "v3"),
      credentialsFile: join(".wrangler", "dev-credentials.json"),
      lockFile: join(".wrangler", "dev.lock"),
    });
    expect(devState({ DEV_STATE_DIR: "/tmp/ci-state" }).lockFile).toBe(join("/tmp/ci-state", "dev.lock"));
  });

  it("reads a lock whose process runs, and ignores a stale, a malformed or a missing one", async () => {
    const state = devState({ DEV_STATE_DIR: stateDir() });
    expect(liveLock(state)).toBeUndefined();
    writeFileSync(state.lockFile, JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:1" }));
    expect(liveLock(state)).toEqual({ pid: process.pid, url: "http://127.0.0.1:1" });
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((done) => gone.once("exit", done));
    writeFileSync(state.lockFile, JSON.stringify({ pid: gone.pid, url: "http://127.0.0.1:1" }));
    expect(liveLock(state)).toBeUndefined();
    writeFileSync(state.lockFile, "{");
    expect(liveLock(state)).toBeUndefined();
  });
});

describe("npm run dev (scripts/dev.ts) on a directory another npm run dev holds", () => {
  it("refuses to start, names the other server, and leaves its lock and database alone", async () => {
    const dir = stateDir();
    const lock = `${JSON.stringify({ pid: process.pid, url: "http://127.0.0.1:8787" }, null, 2)}\n`;
    writeFileSync(join(dir, "dev.lock"), lock);
    const [port, inspector] = [await freePort(), await freePort()];
    const { code, output } = await runScript(
      "scripts/dev.ts",
      { DEV_STATE_DIR: dir, PORT: String(port), INSPECTOR_PORT: String(inspector) },
      15_000,
    );
    expect(code, output).toBe(1);
    expect(output).toContain(`npm run dev is already running on ${dir} (process ${process.pid}, http://127.0.0.1:8787)`);
    expect(readFileSync(join(dir, "dev.lock"), "utf8")).toBe(lock);
    expect(existsSync(join(dir, "state"))).toBe(false);
    expect(existsSync(join(dir, "dev-credentials.json"))).toBe(false);
  });
});

describe("npm run seed (scripts/seed.ts) on a directory npm run dev holds", () => {
  it("waits for that server, and fails without opening the database when it stops before answering", async () => {
    const dir = stateDir();
    // A running process that holds the lock but never answers: an npm run dev still starting, then stopped.
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    children.push(holder);
    writeFileSync(join(dir, "dev.lock"), JSON.stringify({ pid: holder.pid, url: `http://127.0.0.1:${await freePort()}` }));
    setTimeout(() => holder.kill("SIGKILL"), 3_000);
    const { code, output } = await runScript("scripts/seed.ts", { DEV_STATE_DIR: dir }, 18_000);
    expect(code, output).toBe(1);
    expect(output).toContain("seeding through it");
    expect(output).toContain("stopped before it answered");
    expect(output).not.toContain("Building the bundle");
    expect(existsSync(join(dir, "state"))).toBe(false);
  });
});
