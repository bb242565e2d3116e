// scripts/walkthrough.sh fails loudly: against no server, and against a server that answers any one
// step with an empty body, another status or another value, it exits non-zero with a FAIL line
// naming that step. Against a server answering as the README says, it passes (so the fake below
// answers what the script checks, and each failure is the one step's).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const KEY = "qz_live_walkthrough";

interface Answer {
  status: number;
  body: string;
}

/** Each step of the walk-through: the request the fake answers, as documented, and a wrong value. */
const STEPS: { step: string; method: string; path: string; right: unknown; status: number; wrong: unknown }[] = [
  {
    step: "the service is up",
    method: "GET",
    path: "/health",
    status: 200,
    right: { status: "ok" },
    wrong: { status: "starting" },
  },
  {
    step: "the key authenticates",
    method: "GET",
    path: "/v1/auth/verify",
    status: 200,
    right: { status: "success" },
    wrong: { status: "error" },
  },
  {
    step: "quiz created with 2 questions",
    method: "POST",
    path: "/v1/quizzes",
    status: 201,
    right: { id: "quiz_1", questions: 2, question_ids: ["qst_1", "qst_2"] },
    wrong: { id: "quiz_1", questions: 1, question_ids: ["qst_1"] },
  },
  {
    step: "quizzes listed",
    method: "GET",
    path: "/v1/quizzes?limit=10",
    status: 200,
    right: { quizzes: [{ id: "quiz_1" }], next_cursor: null },
    wrong: { quizzes: [], next_cursor: null },
  },
  { step: "user registered", method: "POST", path: "/v1/users", status: 201, right: { id: "user_1" }, wrong: { id: null } },
  {
    step: "submission open",
    method: "POST",
    path: "/v1/quizzes/quiz_1/submissions",
    status: 201,
    right: { id: "sub_1", status: "open" },
    wrong: { id: "sub_1", status: "graded" },
  },
  {
    step: "graded",
    method: "POST",
    path: "/v1/submissions/sub_1/grade",
    status: 200,
    right: { score: 100, feedback: "Well done" },
    wrong: { score: 50, feedback: "Keep practising" },
  },
  {
    step: "results",
    method: "GET",
    path: "/v1/submissions/sub_1/results",
    status: 200,
    right: { answers: [{ correct: true }, { correct: true }] },
    wrong: { answers: [{ correct: true }, { correct: false }] },
  },
  {
    step: "quiz analytics",
    method: "GET",
    path: "/v1/analytics/quiz/quiz_1",
    status: 200,
    right: { total_attempts: 1, avg_score: 100 },
    wrong: { total_attempts: 0, avg_score: null },
  },
  {
    step: "user analytics",
    method: "GET",
    path: "/v1/analytics/user/user_1",
    status: 200,
    right: { quizzes_taken: 1 },
    wrong: { quizzes_taken: 0 },
  },
];

let server: Server;
let api: string;
/** The one step answered otherwise in the current run, by "METHOD path". */
let override: { route: string; answer: Answer } | undefined;

function run(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      "bash",
      ["scripts/walkthrough.sh"],
      { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env }, timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const runAgainstFake = () => run({ API: api, QUIZ_KEY: KEY });

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const route = `${req.method} ${req.url}`;
      const step = STEPS.find((s) => `${s.method} ${s.path}` === route);
      let answer: Answer = step
        ? { status: step.status, body: JSON.stringify(step.right) }
        : { status: 404, body: JSON.stringify({ code: "not_found" }) };
      if (req.url !== "/health" && req.headers["x-api-key"] !== KEY) answer = { status: 401, body: '{"code":"unauthorized"}' };
      if (override?.route === route) answer = override.answer;
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

describe("scripts/walkthrough.sh", () => {
  it("passes against a server answering every step as the README says", async () => {
    override = undefined;
    const { code, stdout, stderr } = await runAgainstFake();
    expect(stderr).toBe("");
    expect(code).toBe(0);
    for (const { step } of STEPS) expect(stdout).toContain(`ok  ${step}\n`);
    expect(stdout).toMatch(/walk-through: every step answered as documented\n$/);
  });

  it("fails at the first step, with a FAIL line, when nothing listens on the port", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const { code, stdout, stderr } = await run({ API: `http://127.0.0.1:${port}`, QUIZ_KEY: KEY });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/^FAIL: the service is up: no answer from /m);
    expect(stdout).not.toMatch(/^ok /m);
  });

  it("fails, naming what it looked for, when no server is running on the state directory", async () => {
    const state = mkdtempSync(join(tmpdir(), "walkthrough-state-"));
    try {
      const { code, stdout, stderr } = await run({ DEV_STATE_DIR: state });
      expect(code).not.toBe(0);
      expect(stderr).toContain(`FAIL: find the server: no ${state}/dev.lock`);
      expect(stdout).toBe("");
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  for (const [i, { step, method, path, status, wrong }] of STEPS.entries()) {
    it(`fails at "${step}" when it answers an empty body, another status or another value`, async () => {
      const answers: Answer[] = [
        { status, body: "" },
        { status: 500, body: '{"type":"about:blank","status":500,"code":"internal_error"}' },
        { status, body: JSON.stringify(wrong) },
      ];
      for (const answer of answers) {
        override = { route: `${method} ${path}`, answer };
        const { code, stdout, stderr } = await runAgainstFake();
        const what = `${step}: ${answer.status} ${JSON.stringify(answer.body)}`;
        expect(code, what).not.toBe(0);
        expect(stderr, what).toMatch(new RegExp(`^FAIL: ${step}: `, "m"));
        // The steps before it passed; it and the ones after it were never reported ok.
        for (const earlier of STEPS.slice(0, i)) expect(stdout, what).toContain(`ok  ${earlier.step}\n`);
        for (const later of STEPS.slice(i)) expect(stdout, what).not.toContain(`ok  ${later.step}\n`);
      }
      override = undefined;
    });
  }
});
