import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeSnippetsFromWalkthrough } from "../support/shell-snippets";
import { useDevServer } from "./dev-server";

/**
 * The first hour as the README tells it, against `npm run dev` on a fresh database:
 * scripts/walkthrough.sh finds the server by its DEV_STATE_DIR's dev.lock and passes, and every
 * README snippet from the walk-through on runs as pasted, in order, in one shell, in a folder whose
 * .wrangler is that server's state, with every call answered 2xx (curl --fail-with-body).
 */
const RUN_TIMEOUT_MS = 120_000;

function bash(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn("bash", args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: RUN_TIMEOUT_MS,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => done({ code, output }));
  });
}

describe("the README against npm run dev", () => {
  const server = useDevServer();
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "quiz-readme-"));
    symlinkSync(server().stateDir, join(folder, ".wrangler"));
  });
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(
    "scripts/walkthrough.sh finds the server by its state directory and passes every step",
    async () => {
      const { code, output } = await bash(["scripts/walkthrough.sh"], { env: { DEV_STATE_DIR: server().stateDir } });
      expect(code, output).toBe(0);
      expect(output).toMatch(/walk-through: every step answered as documented\n$/);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "runs every snippet from the walk-through on as pasted, each call answered 2xx",
    async () => {
      const port = new URL(server().url).port;
      const script = [
        "set -euo pipefail",
        // Any answer of 400 or more fails the command, and so the run (set -e, pipefail).
        'curl() { command curl --fail-with-body "$@"; }',
        ...readmeSnippetsFromWalkthrough().flatMap((s) => [`echo; echo "### ${s.where} (${s.section})"`, s.code]),
        'echo; echo "### every snippet ran"',
      ].join("\n");
      const { code, output } = await bash(["-c", script], { cwd: folder, env: { PORT: port } });
      expect(code, output).toBe(0);
      expect(output).toMatch(/### every snippet ran\n$/);
      // What the snippets download and upload is there: the export, the QTI package, the GIFT bank.
      expect(readdirSync(folder).sort()).toEqual([
        ".wrangler",
        "bank.gift",
        "capitals.zip",
        expect.stringMatching(/-answers\.csv$/),
      ]);
    },
    RUN_TIMEOUT_MS,
  );
});
