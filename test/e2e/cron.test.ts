import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useDevServer } from "./dev-server";

const execFileAsync = promisify(execFile);

/**
 * The cron under `npm run dev` (docs/api.md: overdue submissions are graded by the Cron Trigger,
 * graded_by "deadline"), black-box through wrangler dev: the route that runs the worker's
 * `scheduled` handler, and npm run dev's own timer calling it (every 2 s here, every minute by
 * default), with grading done by the local queue's consumer. Nothing is called in-process.
 */
describe("npm run dev runs the cron", () => {
  const server = useDevServer({ DEV_CRON_SECONDS: "2" });

  async function api(path: string, init: { method?: string; body?: unknown } = {}) {
    const { url, key } = server();
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: { "X-API-Key": key, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  }

  it("GET /__scheduled?cron=… runs the worker's scheduled handler: 200", async () => {
    const res = await fetch(`${server().url}/__scheduled?cron=${encodeURIComponent("* * * * *")}`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.text()).toBe("Ran scheduled event\n");
  });

  it("only wrangler dev's build has /__scheduled: the bundle wrangler deploy uploads does not", async () => {
    // wrangler runs the [build] command with WRANGLER_COMMAND=dev or =deploy (scripts/build.ts decides by it).
    const dir = mkdtempSync(join(tmpdir(), "quiz-build-"));
    try {
      // Run without blocking this process: a connection to the server that the server closes while
      // the event loop is blocked is only noticed when the next request is written to it.
      const build = async (command: string) => {
        const outdir = join(dir, command);
        await execFileAsync(process.execPath, ["--import", "tsx", "scripts/build.ts", "--outdir", outdir], {
          env: { ...process.env, WRANGLER_COMMAND: command },
        });
        return readFileSync(join(outdir, "index.js"), "utf8");
      };
      // The docs' renderer in public/ is left as it is: wrangler dev would reload this file's server on a change there.
      const vendor = statSync("public/docs/vendor/VERSION").mtimeMs;
      expect(await build("deploy")).not.toContain("__scheduled");
      expect(await build("dev")).toContain("/__scheduled");
      expect(statSync("public/docs/vendor/VERSION").mtimeMs).toBe(vendor);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a submission left open past its deadline is graded by the cron, graded_by deadline", async () => {
    // time_limit_seconds is at least 60: a window closing 5 s from now gives the deadline instead.
    const availableUntil = new Date(Date.now() + 5_000).toISOString();
    const quiz = await api("/v1/quizzes", {
      body: {
        title: `Closes soon ${crypto.randomUUID()}`,
        questions: [{ type: "true_false", prompt: "Is the sky blue?", correct: true }],
        settings: { available_until: availableUntil },
      },
    });
    expect(quiz.status, quiz.text).toBe(201);
    const user = await api("/v1/users", { body: { name: "Ada", email: `${crypto.randomUUID()}@example.com` } });
    expect(user.status, user.text).toBe(201);
    const created = await api(`/v1/quizzes/${quiz.json.id}/submissions`, {
      body: { user_id: user.json.id, answers: [{ question_id: quiz.json.question_ids[0], response: true }] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ status: "open", deadline_at: availableUntil, graded_by: null });

    // Nobody calls grade: npm run dev's cron finds it overdue and the queue's consumer grades it.
    const deadline = Date.now() + 40_000;
    let submission = created;
    while (Date.now() < deadline) {
      submission = await api(`/v1/submissions/${created.json.id}`);
      expect(submission.status, submission.text).toBe(200);
      if (submission.json.status !== "open") break;
      await new Promise((done) => setTimeout(done, 500));
    }
    expect(submission.json).toMatchObject({ status: "graded", graded_by: "deadline", score: 100 });
    expect(Date.parse(submission.json.graded_at)).toBeGreaterThanOrEqual(Date.parse(availableUntil));
  });
});
