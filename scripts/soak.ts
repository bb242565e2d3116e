// npm run soak [-- --clients 20 --seconds 60 --seed 1 --keep]: a soak test against `wrangler dev`.
//
// Starts `wrangler dev` on 127.0.0.1 (a free port, its own process group, state in a fresh temp
// dir via --persist-to), lets N clients run a realistic mix for S seconds — create users and
// quizzes with questions, submit, grade (twice, sometimes concurrently, sometimes another client's
// submission), read results and analytics, page through lists, rotate each client's API key
// midway and switch to the new one, get OAuth tokens and refresh them — then checks invariants
// directly in the local D1 (`wrangler d1 execute --local --persist-to`): no lost and no duplicate
// submissions, every grade answer equal to the stored score, analytics equal to a recomputation
// from the submissions table (test/support/recompute.ts's definitions), no 5xx. Exits non-zero on any
// failure. The clients make far more than the default 600 requests a minute per credential, so
// the rate limits are raised with --var (printed).
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { newApiKey } from "../src/auth/api-keys";
import { SCOPES } from "../src/lib/scopes";
import { literal } from "./d1";
import { seededRandom } from "./random";
import { compareQuiz, compareUser, type QuizAnalytics, recomputeSql, type UserAnalytics } from "./soak-recompute";
import { QUIET_WRANGLER_ENV, runWrangler } from "./wrangler";

const { values } = parseArgs({
  options: {
    clients: { type: "string" },
    seconds: { type: "string" },
    seed: { type: "string" },
    keep: { type: "boolean" },
  },
});
const CLIENTS = Number(values.clients ?? 20);
const SECONDS = Number(values.seconds ?? 60);
const SEED = Number(values.seed ?? 1);
/** Far above what the clients make: the soak is about correctness under load, not the limiter. */
const RAISED_LIMITS = {
  RATE_LIMIT_REQUESTS: "1000000",
  ANONYMOUS_RATE_LIMIT_REQUESTS: "1000000",
  TOKEN_RATE_LIMIT_REQUESTS: "1000000",
};
const REFRESH_EVERY_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// wrangler dev, in its own process group, on state of its own.

const wranglerBin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * wrangler.toml, copied into the soak's directory with its paths made absolute: wrangler dev
 * keeps its bundles under the config's directory (.wrangler/tmp) and reloads the worker when the
 * config file changes, so a private copy keeps other work in the project from restarting it.
 */
function privateConfig(dir: string): string {
  const text = readFileSync("wrangler.toml", "utf8").replace(
    /^(main|migrations_dir)\s*=\s*"([^"]+)"/gm,
    (_, key: string, path: string) => `${key} = ${JSON.stringify(resolve(path))}`,
  );
  const file = join(dir, "wrangler.toml");
  writeFileSync(file, text);
  return file;
}

let CONFIG = "wrangler.toml";

function d1(dir: string, sql: string): unknown[][] {
  const result = runWrangler(
    ["d1", "execute", "DB", "--local", "--config", CONFIG, "--persist-to", dir, "--json", "--command", sql],
    {
      stdio: "pipe",
      encoding: "utf8",
      env: { CI: "true" },
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stdout ?? ""}${result.stderr ?? ""}`);
  return (JSON.parse(String(result.stdout)) as { results: unknown[] }[]).map((r) => r.results);
}

async function startWranglerDev(dir: string, port: number, logFile: string): Promise<ChildProcess> {
  const log = openSync(logFile, "a");
  const vars = Object.entries(RAISED_LIMITS).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    process.execPath,
    [
      wranglerBin,
      "dev",
      "--config",
      CONFIG,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
      "--persist-to",
      dir,
      "--show-interactive-dev-session=false",
      ...vars,
    ],
    { detached: true, stdio: ["ignore", log, log], env: { ...process.env, ...QUIET_WRANGLER_ENV } },
  );
  closeSync(log);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${tail(logFile)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return child;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error(`wrangler dev did not answer /health within 90 s:\n${tail(logFile)}`);
}

/** Stops the whole process group (wrangler and its workerd): TERM, then KILL after 10 s. */
async function stopGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  if ((await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])) === false) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

const tail = (file: string) => readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// What the clients saw.

interface GradeAnswer {
  score: number;
  points_earned: number;
  feedback: string | null;
  graded_at: string;
}

const stats = {
  requests: 0,
  byStatus: new Map<number, number>(),
  byRoute: new Map<string, Map<number, number>>(),
  latencies: [] as number[],
  networkErrors: 0,
  unexpected: [] as string[],
  unexpectedCount: 0,
  fiveHundreds: [] as string[],
  rotations: { done: 0, oldKeyChecked: 0 },
  refreshes: 0,
};

const world = {
  quizzes: [] as Quiz[],
  users: [] as string[],
  open: [] as { id: string; owner: number; quizId: string }[],
  graded: [] as string[],
  created: new Map<string, { quizId: string; userId: string }>(),
  gradeAnswers: new Map<string, GradeAnswer[]>(),
  resultScores: new Map<string, number[]>(),
};

interface Quiz {
  id: string;
  limited: boolean;
  questions: { id: string; right: unknown; wrong: unknown }[];
}

const routeOf = (path: string) => path.split("?")[0]!.replace(/\/(quiz|qst|user|sub|key|cli)_[0-9a-z]{26}/g, "/{id}");

function record(method: string, path: string, status: number, ms: number) {
  stats.requests++;
  stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  const route = `${method} ${routeOf(path)}`;
  const byStatus = stats.byRoute.get(route) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  stats.byRoute.set(route, byStatus);
  stats.latencies.push(ms);
}

function unexpected(what: string) {
  stats.unexpectedCount++;
  if (stats.unexpected.length < 15) stats.unexpected.push(what);
}

let BASE = "";

async function request(
  method: string,
  path: string,
  options: { auth?: string; body?: unknown; form?: Record<string, string>; expect: number[] },
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (options.auth) headers.authorization = options.auth;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  } else if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    stats.networkErrors++;
    unexpected(`${method} ${routeOf(path)}: ${String(error)}`);
    return { status: 0, json: undefined };
  }
  const text = await res.text();
  record(method, path, res.status, performance.now() - started);
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status >= 500 && stats.fiveHundreds.length < 10)
    stats.fiveHundreds.push(`${method} ${path} → ${res.status}: ${text.slice(0, 200)}`);
  if (!options.expect.includes(res.status))
    unexpected(`${method} ${routeOf(path)} → ${res.status} (expected ${options.expect.join("/")}): ${text.slice(0, 200)}`);
  return { status: res.status, json };
}

// ---------------------------------------------------------------------------------------------
// The clients.

/** Question inputs, each with a right and a wrong response. */
const QUESTIONS = [
  {
    input: {
      type: "single_choice",
      prompt: "Capital of France?",
      options: [{ text: "Lyon" }, { text: "Paris" }, { text: "Nice" }],
      correct_option_id: "b",
    },
    right: "b",
    wrong: "c",
  },
  {
    input: {
      type: "multiple_choice",
      prompt: "Even numbers?",
      options: [{ text: "2" }, { text: "3" }, { text: "4" }],
      correct_option_ids: ["a", "c"],
      scoring: "partial",
      points: 2,
    },
    right: ["a", "c"],
    wrong: ["a", "b"],
  },
  { input: { type: "true_false", prompt: "Water is wet.", correct: true }, right: true, wrong: false },
  {
    input: { type: "short_text", prompt: "Capital of Italy?", accepted_answers: ["Rome", "Roma"] },
    right: " ROME ",
    wrong: "Milan",
  },
  { input: { type: "numeric", prompt: "6 × 7?", correct_value: 42, tolerance: 0.5, points: 1.5 }, right: 42.25, wrong: 40 },
];

class Client {
  readonly random: () => number;
  key: { id: string; key: string };
  oauth?: { clientId: string; secret: string; access: string; refresh: string; refreshedAt: number };
  rotateRequested = false;

  constructor(
    readonly index: number,
    key: { id: string; key: string },
    private readonly admin: string,
  ) {
    this.random = seededRandom(SEED * 1000 + index);
    this.key = key;
  }

  private pick<T>(items: T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.random() * items.length)];
  }

  private get auth() {
    return `Bearer ${this.key.key}`;
  }

  /** Reads go with the OAuth access token when this client has one. */
  private get readAuth() {
    return this.oauth ? `Bearer ${this.oauth.access}` : this.auth;
  }

  async setUp() {
    await this.createUser();
    await this.createQuiz();
    if (this.index % 2 === 0) {
      const { json } = await request("POST", "/v1/oauth-clients", {
        auth: `Bearer ${this.admin}`,
        body: { name: `soak reader ${this.index}`, scopes: ["quizzes:read", "submissions:read", "analytics:read"] },
        expect: [201],
      });
      const token = await request("POST", "/oauth/token", {
        form: { grant_type: "client_credentials", client_id: json.client_id, client_secret: json.client_secret },
        expect: [200],
      });
      this.oauth = {
        clientId: json.client_id,
        secret: json.client_secret,
        access: token.json.access_token,
        refresh: token.json.refresh_token,
        refreshedAt: Date.now(),
      };
    }
  }

  async run(deadline: number) {
    while (Date.now() < deadline) {
      if (this.rotateRequested) await this.rotateKey();
      if (this.oauth && Date.now() - this.oauth.refreshedAt > REFRESH_EVERY_MS) await this.refreshToken();
      const r = this.random();
      if (r < 0.06) await this.createQuiz();
      else if (r < 0.12) await this.createUser();
      else if (r < 0.42) await this.submit();
      else if (r < 0.64) await this.grade();
      else if (r < 0.76) await this.results();
      else if (r < 0.88) await this.analytics();
      else if (r < 0.95) await this.list();
      else await this.replaceAnswers();
    }
  }

  async createUser() {
    const n = `${this.index}-${Math.floor(this.random() * 1e9)}`;
    const { status, json } = await request("POST", "/v1/users", {
      auth: this.auth,
      body: { name: `Soak ${n}`, email: `soak.${n}@example.com` },
      expect: [201, 409],
    });
    if (status === 201) world.users.push(json.id);
  }

  async createQuiz() {
    const count = 2 + Math.floor(this.random() * 4);
    const chosen = Array.from({ length: count }, (_, i) => QUESTIONS[(i + Math.floor(this.random() * 5)) % QUESTIONS.length]!);
    const limited = this.random() < 0.2;
    const { status, json } = await request("POST", "/v1/quizzes", {
      auth: this.auth,
      body: {
        title: `Soak quiz ${this.index}`,
        settings: {
          max_attempts: limited ? 2 : null,
          feedback_bands: [
            { min_score: 0, message: "Keep going" },
            { min_score: 80, message: "Well done" },
          ],
        },
        questions: chosen.map((q) => q.input),
      },
      expect: [201],
    });
    if (status !== 201) return;
    const list = await request("GET", `/v1/quizzes/${json.id}/questions?limit=100`, { auth: this.auth, expect: [200] });
    if (list.status !== 200) return;
    const questions = (list.json.questions as { id: string; position: number }[])
      .sort((a, b) => a.position - b.position)
      .map((q, i) => ({ id: q.id, right: chosen[i]!.right, wrong: chosen[i]!.wrong }));
    world.quizzes.push({ id: json.id, limited, questions });
  }

  private answersFor(quiz: Quiz) {
    return quiz.questions.flatMap((q) => {
      const roll = this.random();
      return roll < 0.1 ? [] : [{ question_id: q.id, response: roll < 0.65 ? q.right : q.wrong }];
    });
  }

  async submit() {
    const quiz = this.pick(world.quizzes);
    const user = this.pick(world.users);
    if (!quiz || !user) return;
    const { status, json } = await request("POST", `/v1/quizzes/${quiz.id}/submissions`, {
      auth: this.auth,
      body: { user_id: user, answers: this.answersFor(quiz) },
      expect: quiz.limited ? [201, 409] : [201],
    });
    if (status === 201) {
      world.created.set(json.id, { quizId: quiz.id, userId: user });
      world.open.push({ id: json.id, owner: this.index, quizId: quiz.id });
    }
  }

  private noteGrade(id: string, status: number, json: any) {
    if (status !== 200) return;
    const list = world.gradeAnswers.get(id) ?? [];
    list.push({ score: json.score, points_earned: json.points_earned, feedback: json.feedback, graded_at: json.graded_at });
    world.gradeAnswers.set(id, list);
  }

  /** Once, twice in a row, or two or three at once; sometimes someone else's, sometimes a graded one again. */
  async grade() {
    let id: string | undefined;
    if (this.random() < 0.15) id = this.pick(world.graded);
    else {
      const mine = world.open.filter((s) => s.owner === this.index);
      const candidate = this.random() < 0.25 ? this.pick(world.open) : this.pick(mine);
      if (candidate) {
        id = candidate.id;
        world.open.splice(world.open.indexOf(candidate), 1);
      }
    }
    if (!id) return this.submit();
    const path = `/v1/submissions/${id}/grade`;
    const mode = this.random();
    if (mode < 0.35) {
      const answers = await Promise.all(
        Array.from({ length: 2 + Math.floor(this.random() * 2) }, () =>
          request("POST", path, { auth: this.auth, expect: [200] }),
        ),
      );
      for (const a of answers) this.noteGrade(id, a.status, a.json);
    } else {
      const times = mode < 0.6 ? 2 : 1;
      for (let i = 0; i < times; i++) {
        const a = await request("POST", path, { auth: this.auth, expect: [200] });
        this.noteGrade(id, a.status, a.json);
      }
    }
    if (!world.graded.includes(id)) world.graded.push(id);
  }

  async results() {
    const id = this.pick(world.graded);
    if (!id) return this.grade();
    const { status, json } = await request("GET", `/v1/submissions/${id}/results`, { auth: this.readAuth, expect: [200] });
    if (status === 200) world.resultScores.set(id, [...(world.resultScores.get(id) ?? []), json.score]);
  }

  async analytics() {
    if (this.random() < 0.5) {
      const quiz = this.pick(world.quizzes);
      if (quiz) await request("GET", `/v1/analytics/quiz/${quiz.id}`, { auth: this.readAuth, expect: [200] });
    } else {
      const user = this.pick(world.users);
      if (user) await request("GET", `/v1/analytics/user/${user}`, { auth: this.readAuth, expect: [200] });
    }
  }

  /** Up to three pages of quizzes, or of one quiz's submissions. */
  async list() {
    const quiz = this.pick(world.quizzes);
    let path = this.random() < 0.5 || !quiz ? "/v1/quizzes?limit=25" : `/v1/quizzes/${quiz.id}/submissions?limit=50`;
    for (let page = 0; page < 3; page++) {
      const { status, json } = await request("GET", path, { auth: this.readAuth, expect: [200] });
      if (status !== 200 || !json.next_cursor) return;
      path = `${path.split("?")[0]}?limit=${path.includes("submissions") ? 50 : 25}&cursor=${encodeURIComponent(json.next_cursor)}`;
    }
  }

  async replaceAnswers() {
    const mine = world.open.filter((s) => s.owner === this.index);
    const sub = this.pick(mine);
    const quiz = sub && world.quizzes.find((q) => q.id === sub.quizId);
    if (!sub || !quiz) return this.submit();
    // 409 when another client has just graded it.
    await request("PUT", `/v1/submissions/${sub.id}/answers`, {
      auth: this.auth,
      body: { answers: this.answersFor(quiz) },
      expect: [200, 409],
    });
  }

  /** Midway: the operator rotates this client's key; the client switches, and the old key is tried once. */
  async rotateKey() {
    this.rotateRequested = false;
    const grace = this.index % 2 === 0 ? 0 : 30;
    const { status, json } = await request("POST", `/v1/api-keys/${this.key.id}/rotate`, {
      auth: `Bearer ${this.admin}`,
      body: { grace_seconds: grace },
      expect: [201],
    });
    if (status !== 201) return;
    const old = this.key;
    this.key = { id: json.id, key: json.key };
    stats.rotations.done++;
    // Without a grace the old key is refused at once; with one it works until the grace ends.
    await request("GET", "/v1/auth/verify", { auth: `Bearer ${old.key}`, expect: grace === 0 ? [401] : [200] });
    await request("GET", "/v1/auth/verify", { auth: this.auth, expect: [200] });
    stats.rotations.oldKeyChecked++;
  }

  async refreshToken() {
    const oauth = this.oauth!;
    const { status, json } = await request("POST", "/oauth/token", {
      form: { grant_type: "refresh_token", refresh_token: oauth.refresh, client_id: oauth.clientId, client_secret: oauth.secret },
      expect: [200],
    });
    oauth.refreshedAt = Date.now();
    if (status !== 200) return;
    oauth.access = json.access_token;
    oauth.refresh = json.refresh_token;
    stats.refreshes++;
  }
}

// ---------------------------------------------------------------------------------------------
// Invariants.

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function checkInvariants(
  dir: string,
  apiQuiz: Map<string, QuizAnalytics>,
  apiUser: Map<string, UserAnalytics>,
): Promise<Check[]> {
  const checks: Check[] = [];
  const [rows, dupes, quizTotals, quizQuestions, userTotals] = d1(
    dir,
    [
      "SELECT id, quiz_id, user_id, status, score, points_earned, feedback, graded_at FROM submissions",
      "SELECT quiz_id, user_id, attempt, count(*) AS n FROM submissions GROUP BY quiz_id, user_id, attempt HAVING n > 1",
      ...recomputeSql(),
    ].join(";\n"),
  ) as [any[], any[], any[], any[], any[]];
  const stored = new Map<string, any>(rows.map((r) => [r.id, r]));

  const lost = [...world.created.keys()].filter((id) => !stored.has(id));
  checks.push({
    name: "no lost submissions (every 201 is in D1)",
    ok: lost.length === 0,
    detail: `${world.created.size} created, ${lost.length} missing${lost.length ? `: ${lost.slice(0, 5).join(", ")}` : ""}`,
  });

  const extra = rows.filter((r) => !world.created.has(r.id));
  const mismatched = [...world.created].filter(
    ([id, s]) => stored.has(id) && (stored.get(id).quiz_id !== s.quizId || stored.get(id).user_id !== s.userId),
  );
  checks.push({
    name: "no duplicate submissions",
    ok: extra.length === 0 && dupes.length === 0 && mismatched.length === 0,
    detail: `${rows.length} rows for ${world.created.size} answers of 201; ${extra.length} rows no client made, ${dupes.length} repeated (quiz, user, attempt), ${mismatched.length} with another quiz or user`,
  });

  // Every answer of every grade call (first, repeated or concurrent) is the one grade D1 holds.
  let answers = 0;
  let disagreeing = 0;
  const samples: string[] = [];
  for (const [id, list] of world.gradeAnswers) {
    const row = stored.get(id);
    for (const a of list) {
      answers++;
      const same =
        row &&
        row.status === "graded" &&
        row.score === a.score &&
        row.points_earned === a.points_earned &&
        row.feedback === a.feedback &&
        row.graded_at === a.graded_at;
      if (same) continue;
      disagreeing++;
      if (samples.length < 5)
        samples.push(
          `${id}: answered ${JSON.stringify(a)}, stored ${JSON.stringify(row && { status: row.status, score: row.score, points_earned: row.points_earned, feedback: row.feedback, graded_at: row.graded_at })}`,
        );
    }
  }
  const repeated = [...world.gradeAnswers.values()].filter((l) => l.length > 1).length;
  checks.push({
    name: "every grade answer equals the stored grade",
    ok: disagreeing === 0,
    detail: `${answers} answers for ${world.gradeAnswers.size} submissions (${repeated} graded more than once); ${disagreeing} disagree${samples.length ? `: ${samples.join("; ")}` : ""}`,
  });

  const resultWrong = [...world.resultScores].filter(([id, scores]) => scores.some((s) => s !== stored.get(id)?.score));
  checks.push({
    name: "every results answer shows the stored score",
    ok: resultWrong.length === 0,
    detail: `${[...world.resultScores.values()].flat().length} results read; ${resultWrong.length} disagree`,
  });

  const quizProblems = compareQuiz(apiQuiz, quizTotals, quizQuestions);
  checks.push({
    name: "quiz analytics equal a recomputation from submissions",
    ok: quizProblems.length === 0,
    detail: `${apiQuiz.size} quizzes compared${quizProblems.length ? `; ${quizProblems.slice(0, 5).join("; ")}` : ""}`,
  });
  const userProblems = compareUser(apiUser, userTotals);
  checks.push({
    name: "user analytics equal a recomputation from submissions",
    ok: userProblems.length === 0,
    detail: `${apiUser.size} users compared${userProblems.length ? `; ${userProblems.slice(0, 5).join("; ")}` : ""}`,
  });

  const fives = [...stats.byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  checks.push({
    name: "no 5xx answers",
    ok: fives === 0,
    detail: `${fives}${stats.fiveHundreds.length ? `: ${stats.fiveHundreds.join("; ")}` : ""}`,
  });
  checks.push({
    name: "every answer was one the client expected",
    ok: stats.unexpectedCount === 0,
    detail: `${stats.unexpectedCount} unexpected (network errors: ${stats.networkErrors})`,
  });
  checks.push({
    name: "every client rotated its key and switched",
    ok: stats.rotations.oldKeyChecked === CLIENTS,
    detail: `${stats.rotations.done} rotations, ${stats.rotations.oldKeyChecked} checked`,
  });
  return checks;
}

// ---------------------------------------------------------------------------------------------

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const histogram = (m: Map<number, number>) =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "quiz-soak-"));
  const logFile = join(dir, "wrangler-dev.log");
  const port = await freePort();
  BASE = `http://127.0.0.1:${port}`;
  process.stdout.write(`soak: ${CLIENTS} clients × ${SECONDS} s against wrangler dev on ${BASE} (state in ${dir})\n`);
  process.stdout.write(
    `rate limits raised with --var: ${Object.entries(RAISED_LIMITS)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")} (defaults: 600/60 s per credential, 60/60 s per IP)\n`,
  );

  CONFIG = privateConfig(dir);
  const migrated = runWrangler(["d1", "migrations", "apply", "DB", "--local", "--config", CONFIG, "--persist-to", dir], {
    stdio: "pipe",
    encoding: "utf8",
    env: { CI: "true" },
  });
  if (migrated.status !== 0)
    throw new Error(`wrangler d1 migrations apply failed: ${migrated.stdout ?? ""}${migrated.stderr ?? ""}`);
  const admin = await newApiKey({ name: "soak admin", scopes: ["admin"], expiresAt: null });
  const r = admin.row;
  d1(
    dir,
    `INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (${[r.id, r.name, r.keyHash, r.prefix, JSON.stringify(r.scopes), r.createdAt].map(literal).join(", ")})`,
  );

  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child) await stopGroup(child);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop().then(() => process.exit(130)));
  let failed = true;
  try {
    child = await startWranglerDev(dir, port, logFile);
    process.stdout.write(`wrangler dev is up (pid ${child.pid}, process group ${child.pid})\n`);

    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const { json } = await request("POST", "/v1/api-keys", {
        auth: `Bearer ${admin.key}`,
        body: {
          name: `soak client ${i}`,
          scopes: SCOPES.filter((scope) => scope !== "admin"),
        },
        expect: [201],
      });
      clients.push(new Client(i, { id: json.id, key: json.key }, admin.key));
    }
    await Promise.all(clients.map((c) => c.setUp()));

    const setupRequests = stats.requests;
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    const midway = setTimeout(() => clients.forEach((c) => (c.rotateRequested = true)), (SECONDS * 1000) / 2);
    await Promise.all(clients.map((c) => c.run(deadline)));
    clearTimeout(midway);
    const elapsed = (Date.now() - started) / 1000;
    const loadRequests = stats.requests - setupRequests;

    // The analytics as the API answers them, now that nothing writes any more.
    const apiQuiz = new Map<string, QuizAnalytics>();
    const apiUser = new Map<string, UserAnalytics>();
    for (const quiz of world.quizzes)
      apiQuiz.set(
        quiz.id,
        (await request("GET", `/v1/analytics/quiz/${quiz.id}`, { auth: `Bearer ${admin.key}`, expect: [200] })).json,
      );
    for (const user of world.users)
      apiUser.set(
        user,
        (await request("GET", `/v1/analytics/user/${user}`, { auth: `Bearer ${admin.key}`, expect: [200] })).json,
      );
    await stop();
    child = undefined;

    const sorted = [...stats.latencies].sort((a, b) => a - b);
    process.stdout.write(
      `\nrequests: ${loadRequests} in ${elapsed.toFixed(1)} s under load = ${(loadRequests / elapsed).toFixed(0)} req/s (${stats.requests} in all, with set-up and the final reads)\n`,
    );
    process.stdout.write(
      `latency: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms\n`,
    );
    process.stdout.write(`statuses: ${histogram(stats.byStatus)}\n`);
    process.stdout.write(
      `work: ${world.quizzes.length} quizzes, ${world.users.length} users, ${world.created.size} submissions (${world.gradeAnswers.size} graded), ${stats.rotations.done} key rotations, ${stats.refreshes} token refreshes\n`,
    );
    process.stdout.write("by endpoint:\n");
    for (const [route, byStatus] of [...stats.byRoute].sort())
      process.stdout.write(`  ${route.padEnd(44)} ${histogram(byStatus)}\n`);
    process.stdout.write(`errors: ${stats.networkErrors} network, ${stats.unexpectedCount} unexpected answers\n`);
    for (const u of stats.unexpected) process.stdout.write(`  ${u}\n`);
    if (stats.unexpected.some((u) => u.includes("restarted mid-request")))
      process.stdout.write(
        '  ("Your worker restarted mid-request" is wrangler dev\'s proxy: the worker was reloaded, e.g. because a source file changed; see its log)\n',
      );

    const checks = await checkInvariants(dir, apiQuiz, apiUser);
    process.stdout.write("\ninvariants (checked in the local D1):\n");
    for (const c of checks) process.stdout.write(`  ${c.ok ? "PASS" : "FAIL"}  ${c.name} — ${c.detail}\n`);
    failed = checks.some((c) => !c.ok);
    process.stdout.write(`\n${failed ? "soak FAILED" : "soak passed"}\n`);
  } finally {
    await stop();
    if (values.keep || failed) process.stdout.write(`state and wrangler dev's log kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
