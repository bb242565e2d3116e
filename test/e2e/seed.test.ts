import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, expect, it } from "vitest";
import { startLocalWorker } from "../../scripts/local-worker";
import { useDevServer } from "./dev-server";

/**
 * `npm run seed` (docs/development.md): every demo quiz, and so every automatically graded question
 * type, has graded submissions; it seeds the state directory it is given (DEV_STATE_DIR), through
 * the npm run dev that holds it or, with none running, through a worker of its own on the same
 * files; and it never touches the developer's .wrangler/.
 */
const SEED_TIMEOUT_MS = 240_000;
const AUTO_GRADED = [
  "single_choice",
  "multiple_choice",
  "true_false",
  "short_text",
  "numeric",
  "ordering",
  "matching",
  "fill_in_blanks",
];

function seed(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: SEED_TIMEOUT_MS,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => done({ code, output }));
  });
}

/** What the developer's own state directory holds, to show that a seed elsewhere left it alone. */
function developerState(): string {
  const credentials = ".wrangler/dev-credentials.json";
  const state = ".wrangler/state";
  return JSON.stringify({
    credentials: existsSync(credentials) ? readFileSync(credentials, "utf8") : null,
    state: existsSync(state) ? statSync(state).mtimeMs : null,
  });
}

/** Every demo quiz has graded attempts at every one of its questions, and they cover every auto-graded type. */
async function expectEveryTypeGraded(url: string, key: string) {
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { "X-API-Key": key }, signal: AbortSignal.timeout(10_000) });
    expect(res.status, path).toBe(200);
    return (await res.json()) as any;
  };
  const { quizzes } = await get("/v1/quizzes?limit=100");
  const demos = (quizzes as { id: string; title: string }[]).filter((q) => q.title.startsWith("Demo: "));
  expect(demos.map((q) => q.title).sort()).toEqual([
    "Demo: Arithmetic warm-up",
    "Demo: Beyond choices",
    "Demo: European capitals",
    "Demo: Science basics",
  ]);
  const graded = new Set<string>();
  for (const quiz of demos) {
    const analytics = await get(`/v1/analytics/quiz/${quiz.id}`);
    expect(analytics.total_attempts, quiz.title).toBeGreaterThan(0);
    const { questions } = await get(`/v1/quizzes/${quiz.id}/questions?limit=100`);
    const { items } = await get(`/v1/analytics/quiz/${quiz.id}/items`);
    for (const question of questions as { id: string; type: string }[]) {
      const item = (items as { question_id: string; n: number }[]).find((i) => i.question_id === question.id);
      expect(item?.n, `${quiz.title}: ${question.type}`).toBeGreaterThan(0);
      graded.add(question.type);
    }
  }
  expect([...graded].sort()).toEqual([...AUTO_GRADED].sort());
}

describe("npm run seed through the running npm run dev of its DEV_STATE_DIR", () => {
  const server = useDevServer();

  it(
    "seeds through that server: graded submissions of every demo quiz and every auto-graded type",
    async () => {
      const { url, key, stateDir } = server();
      const before = developerState();
      const { code, output } = await seed({ DEV_STATE_DIR: stateDir, PORT: "1" });
      expect(code, output).toBe(0);
      expect(output).toContain(`npm run dev is running on ${stateDir} (${url}): seeding through it.`);
      expect(output).not.toContain("Building the bundle");
      expect(output).toMatch(/Added demo set 1: 4 quizzes, 10 users, 50 submissions \(48 graded, 2 left open\)/);
      await expectEveryTypeGraded(url, key);
      expect(developerState()).toBe(before);
    },
    SEED_TIMEOUT_MS,
  );
});

describe("npm run seed with no npm run dev on its DEV_STATE_DIR", () => {
  it(
    "seeds that directory's database through a worker of its own, and saves a key npm run dev reuses",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "quiz-seed-"));
      try {
        const before = developerState();
        const { code, output } = await seed({ DEV_STATE_DIR: dir });
        expect(code, output).toBe(0);
        expect(output).toContain("Building the bundle");
        expect(output).toContain(`(state in ${join(dir, "state", "v3")})`);
        const { key } = JSON.parse(readFileSync(join(dir, "dev-credentials.json"), "utf8")) as { key: string };
        const worker = await startLocalWorker({ persistRoot: join(dir, "state", "v3"), quiet: true });
        try {
          await expectEveryTypeGraded(worker.url, key);
        } finally {
          await worker.dispose();
        }
        expect(developerState()).toBe(before);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SEED_TIMEOUT_MS,
  );
});
