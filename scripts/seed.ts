// npm run seed [-- --again]: demo data in the local D1 that `npm run dev` serves, written through
// the API itself (quizzes with every question type, users, submissions graded by
// POST /v1/submissions/{id}/grade).
//
// - The state directory is npm run dev's: DEV_STATE_DIR, default .wrangler (scripts/dev-state.ts).
// - `npm run dev` running on it (found by the dev.lock it writes there, whatever its PORT): seeds
//   through it, waiting while it starts. Two workerd processes never write the same SQLite file.
// - `npm run dev` not running on it: builds the bundle, serves it with Miniflare on the same
//   DEV_STATE_DIR/state files `wrangler dev` uses, seeds, stops.
// - The admin key is the one `npm run dev` prints (DEV_STATE_DIR/dev-credentials.json); when
//   there is none yet, one is created in the local D1 and saved there, so that `npm run dev`
//   reuses it.
// - Run twice, it skips: the demo set is already there. `--again` adds another set (other
//   e-mails, new quizzes).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { and, eq, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { newApiKey } from "../src/auth/api-keys";
import { apiKeys } from "../src/db/auth-schema";
import { buildWorker } from "./build";
import { devState, liveLock } from "./dev-state";
import { type LocalWorker, startLocalWorker } from "./local-worker";
import { seededRandom } from "./random";

const STATE = devState();
/** A running npm run dev on this state directory, if any: its lock names it. */
const LOCK = liveLock(STATE);
const DEV_URL = LOCK?.url ?? `http://127.0.0.1:${process.env.PORT ?? "8787"}`;
/** Written by `npm run dev` (scripts/dev.ts) in the same format. */
const CREDENTIALS_FILE = STATE.credentialsFile;
/** npm run dev takes its lock before it migrates and builds: about 20 s here, more on a busy machine. */
const DEV_START_WAIT_MS = 150_000;
const USERS_PER_SET = 10;
/** Each user: one attempt at every demo quiz, then a second at the first (see seedSet). */
const SUBMISSIONS_PER_USER = 5;
/** Left open, to show a submission before grading (results → 409 not_graded). */
const LEFT_OPEN = 2;
/** Retries of a request answered 429 (seeding through `npm run dev`, whose limits are the defaults). */
const MAX_RATE_LIMIT_RETRIES = 5;

interface Credentials {
  id: string;
  key: string;
  scopes: string[];
}

const { values: flags } = parseArgs({ options: { again: { type: "boolean" } } });

// ---------------------------------------------------------------------------------------------
// The demo content. Each question carries one right answer and a few wrong ones to draw from.

type Response = string | string[] | boolean | number | Record<string, string>;
interface DemoQuestion {
  input: Record<string, unknown>;
  right: Response[];
  wrong: Response[];
}
interface DemoQuiz {
  title: string;
  description: string;
  settings: {
    max_attempts: number | null;
    feedback_bands: { min_score: number; message: string }[];
    show_correct_answers: boolean;
  };
  questions: DemoQuestion[];
}

const QUIZZES: DemoQuiz[] = [
  {
    title: "Demo: European capitals",
    description: "Five questions, one of each type, on the capitals of Europe.",
    settings: {
      max_attempts: 3,
      show_correct_answers: true,
      feedback_bands: [
        { min_score: 0, message: "Keep practising: review the map and try again." },
        { min_score: 50, message: "Good work: most capitals are right." },
        { min_score: 85, message: "Excellent: you know your capitals!" },
      ],
    },
    questions: [
      {
        input: {
          type: "single_choice",
          prompt: "What is the capital of France?",
          options: [{ text: "Paris" }, { text: "Lyon" }, { text: "Marseille" }],
          correct_option_id: "a",
          feedback: { correct: "Right: Paris.", incorrect: "It is Paris." },
        },
        right: ["a"],
        wrong: ["b", "c"],
      },
      {
        input: {
          type: "multiple_choice",
          prompt: "Which of these cities are capitals?",
          points: 3,
          options: [
            { id: "vienna", text: "Vienna" },
            { id: "zurich", text: "Zurich" },
            { id: "lisbon", text: "Lisbon" },
            { id: "milan", text: "Milan" },
            { id: "prague", text: "Prague" },
          ],
          correct_option_ids: ["vienna", "lisbon", "prague"],
          scoring: "partial",
          explanation: "Partial scoring: points × max(0, right − wrong) / 3.",
        },
        right: [["vienna", "lisbon", "prague"]],
        wrong: [["vienna", "lisbon"], ["vienna", "zurich", "prague"], ["zurich", "milan"], ["lisbon"]],
      },
      {
        input: { type: "true_false", prompt: "Berlin has been the capital of reunified Germany since 1990.", correct: true },
        right: [true],
        wrong: [false],
      },
      {
        input: { type: "short_text", prompt: "Name the capital of Italy.", accepted_answers: ["Rome", "Roma"] },
        // Matched after trimming, whitespace folding, NFKC and (here) case folding.
        right: ["Rome", " rome ", "ROMA"],
        wrong: ["Milan", "Romania"],
      },
      {
        input: {
          type: "numeric",
          prompt: "How far is Paris from London as the crow flies, in km (±10)?",
          points: 2,
          correct_value: 344,
          tolerance: 10,
        },
        right: [344, 350, 336],
        wrong: [300, 460],
      },
    ],
  },
  {
    title: "Demo: Arithmetic warm-up",
    description: "Six quick ones; as many attempts as you like.",
    settings: {
      max_attempts: null,
      show_correct_answers: true,
      feedback_bands: [
        { min_score: 0, message: "Try again." },
        { min_score: 60, message: "Passed." },
        { min_score: 90, message: "Perfect, or nearly." },
      ],
    },
    questions: [
      { input: { type: "numeric", prompt: "7 × 8 = ?", correct_value: 56 }, right: [56], wrong: [54, 64] },
      {
        input: { type: "numeric", prompt: "π to two decimals (±0.005)?", correct_value: 3.14, tolerance: 0.005 },
        right: [3.14, 3.142],
        wrong: [3.15, 3.1],
      },
      {
        input: { type: "true_false", prompt: "In exact decimal arithmetic, 0.1 + 0.2 = 0.3.", correct: true },
        right: [true],
        wrong: [false],
      },
      {
        input: {
          type: "single_choice",
          prompt: "Which of these is prime?",
          options: [{ text: "21" }, { text: "27" }, { text: "29" }, { text: "33" }],
          correct_option_id: "c",
        },
        right: ["c"],
        wrong: ["a", "b", "d"],
      },
      {
        input: {
          type: "multiple_choice",
          prompt: "Select the even numbers.",
          options: [{ text: "2" }, { text: "3" }, { text: "4" }, { text: "5" }],
          correct_option_ids: ["a", "c"],
          scoring: "all_or_nothing",
        },
        right: [["a", "c"]],
        wrong: [["a"], ["a", "b", "c"]],
      },
      {
        input: {
          type: "short_text",
          prompt: "The Roman numeral for ten (capital letter)?",
          accepted_answers: ["X"],
          case_sensitive: true,
        },
        right: ["X", " X"],
        wrong: ["x", "10"],
      },
    ],
  },
  {
    title: "Demo: Science basics",
    description: "Results do not reveal the answer key (show_correct_answers: false).",
    settings: {
      max_attempts: 2,
      show_correct_answers: false,
      feedback_bands: [
        { min_score: 0, message: "Have another look at the basics." },
        { min_score: 70, message: "Well done." },
      ],
    },
    questions: [
      {
        input: {
          type: "single_choice",
          prompt: "The chemical symbol for gold?",
          options: [{ text: "Au" }, { text: "Ag" }, { text: "Gd" }],
          correct_option_id: "a",
        },
        right: ["a"],
        wrong: ["b", "c"],
      },
      {
        input: {
          type: "multiple_choice",
          prompt: "Which are noble gases?",
          points: 2,
          options: [{ text: "Helium" }, { text: "Neon" }, { text: "Nitrogen" }, { text: "Argon" }, { text: "Oxygen" }],
          correct_option_ids: ["a", "b", "d"],
          scoring: "partial",
        },
        right: [["a", "b", "d"]],
        wrong: [
          ["a", "b"],
          ["a", "c", "d"],
          ["c", "e"],
        ],
      },
      {
        input: { type: "true_false", prompt: "Sound travels faster in water than in air.", correct: true },
        right: [true],
        wrong: [false],
      },
      {
        input: { type: "numeric", prompt: "Water boils at sea level at how many °C (±0.5)?", correct_value: 100, tolerance: 0.5 },
        right: [100, 100.4],
        wrong: [90, 212],
      },
      {
        input: {
          type: "short_text",
          prompt: "Which gas do plants take in for photosynthesis?",
          accepted_answers: ["carbon dioxide", "CO2"],
        },
        right: ["Carbon  dioxide", "co2"],
        wrong: ["oxygen"],
      },
    ],
  },
  {
    title: "Demo: Beyond choices",
    description: "Ordering, matching and fill in the blanks, with partial credit.",
    settings: {
      max_attempts: null,
      show_correct_answers: true,
      feedback_bands: [
        { min_score: 0, message: "Worth another go." },
        { min_score: 75, message: "Nicely done." },
      ],
    },
    questions: [
      {
        input: {
          type: "ordering",
          prompt: "Put the planets in order from the Sun.",
          // Listed in the right order, without correct_order; ids given so that the demo answers can name them.
          items: [
            { id: "mercury", text: "Mercury" },
            { id: "venus", text: "Venus" },
            { id: "earth", text: "Earth" },
            { id: "mars", text: "Mars" },
          ],
          scoring: "partial",
        },
        right: [["mercury", "venus", "earth", "mars"]],
        wrong: [
          ["venus", "mercury", "earth", "mars"],
          ["mars", "earth", "venus", "mercury"],
        ],
      },
      {
        input: {
          type: "matching",
          prompt: "Match each element to its symbol.",
          points: 3,
          prompts: [
            { id: "iron", text: "Iron" },
            { id: "gold", text: "Gold" },
            { id: "lead", text: "Lead" },
          ],
          choices: [
            { id: "fe", text: "Fe" },
            { id: "au", text: "Au" },
            { id: "pb", text: "Pb" },
            { id: "ag", text: "Ag" },
          ],
          correct_matches: { iron: "fe", gold: "au", lead: "pb" },
          scoring: "partial",
        },
        right: [{ iron: "fe", gold: "au", lead: "pb" }],
        wrong: [{ iron: "fe", gold: "ag", lead: "pb" }, { gold: "au" }],
      },
      {
        input: {
          type: "fill_in_blanks",
          prompt: "Complete the sentence.",
          points: 2,
          text: "Water is made of {{h}} and {{o}}.",
          blanks: [
            { id: "h", accepted_answers: ["hydrogen"] },
            { id: "o", accepted_answers: ["oxygen"] },
          ],
        },
        right: [{ h: "hydrogen", o: "Oxygen" }],
        wrong: [{ h: "hydrogen", o: "carbon" }, { h: "helium" }],
      },
    ],
  },
];

const PEOPLE = [
  ["Ada Lovelace", "ada"],
  ["Alan Turing", "alan"],
  ["Grace Hopper", "grace"],
  ["Katherine Johnson", "katherine"],
  ["Edsger Dijkstra", "edsger"],
  ["Barbara Liskov", "barbara"],
  ["Donald Knuth", "donald"],
  ["Margaret Hamilton", "margaret"],
  ["Claude Shannon", "claude"],
  ["Radia Perlman", "radia"],
] as const;

const demoEmail = (set: number, handle: string) => `demo${set}.${handle}@example.com`;

// ---------------------------------------------------------------------------------------------
// Talking to the API.

class Api {
  requests = 0;
  constructor(
    readonly base: string,
    private readonly key: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
    for (let attempt = 0; ; attempt++) {
      this.requests++;
      const res = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        process.stdout.write(`  rate limited; waiting ${wait} s\n`);
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
    }
  }

  async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, json } = await this.call<T>(method, path, body);
    if (status >= 300) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(json)}`);
    return json;
  }
}

async function devServerUp(): Promise<boolean> {
  try {
    const res = await fetch(`${DEV_URL}/health`, { signal: AbortSignal.timeout(1000) });
    return res.ok && ((await res.json()) as { status?: string }).status === "ok";
  } catch {
    return false;
  }
}

/**
 * The key of the npm run dev that holds this state directory, once it answers with its key saved:
 * it may still be migrating or building. Never falls back to opening its files.
 */
async function runningDevKey(): Promise<Credentials> {
  for (const deadline = Date.now() + DEV_START_WAIT_MS; Date.now() < deadline; ) {
    if (!liveLock(STATE)) fail(`npm run dev (${STATE.lockFile}) stopped before it answered on ${DEV_URL}`);
    const saved = existsSync(CREDENTIALS_FILE) ? savedCredentials() : undefined;
    if (saved && (await devServerUp())) return saved;
    await new Promise((done) => setTimeout(done, 500));
  }
  return fail(
    `npm run dev (process ${LOCK?.pid}) holds ${STATE.dir} but did not answer on ${DEV_URL} within ${DEV_START_WAIT_MS / 1000} s`,
  );
}

function savedCredentials(): Credentials | undefined {
  return existsSync(CREDENTIALS_FILE) ? (JSON.parse(readFileSync(CREDENTIALS_FILE, "utf8")) as Credentials) : undefined;
}

/** The saved key if the local D1 still holds it, else a new admin key saved for `npm run dev` too. */
async function ensureKey(worker: LocalWorker): Promise<Credentials> {
  const db = drizzle(await worker.mf.getD1Database("DB"));
  const saved = savedCredentials();
  if (saved) {
    const [row] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, saved.id), isNull(apiKeys.revokedAt)));
    if (row) return saved;
  }
  const { key, row } = await newApiKey({ name: "local admin", scopes: ["admin"], expiresAt: null });
  await db.insert(apiKeys).values(row);
  const credentials = { id: row.id, key, scopes: row.scopes };
  mkdirSync(STATE.dir, { recursive: true });
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  process.stdout.write(`  created a local admin key (saved in ${CREDENTIALS_FILE})\n`);
  return credentials;
}

async function findUser(api: Api, email: string): Promise<{ id: string; name: string } | undefined> {
  const page = await api.ok<{ users: { id: string; name: string }[] }>("GET", `/v1/users?email=${encodeURIComponent(email)}`);
  return page.users[0];
}

// ---------------------------------------------------------------------------------------------

interface Seeded {
  quiz: { id: string; title: string };
  user: { id: string; name: string };
  submission: { id: string; score: number | null };
}

async function seedSet(api: Api, set: number): Promise<Seeded & { counts: string }> {
  const random = seededRandom(set * 7919);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;

  const quizzes: { id: string; title: string; demo: DemoQuiz; questionIds: string[] }[] = [];
  for (const demo of QUIZZES) {
    const title = set === 1 ? demo.title : `${demo.title} (set ${set})`;
    const quiz = await api.ok<{ id: string }>("POST", "/v1/quizzes", {
      title,
      description: demo.description,
      settings: demo.settings,
      questions: demo.questions.map((q) => q.input),
    });
    const { questions } = await api.ok<{ questions: { id: string; position: number }[] }>(
      "GET",
      `/v1/quizzes/${quiz.id}/questions?limit=100`,
    );
    const questionIds = questions.sort((a, b) => a.position - b.position).map((q) => q.id);
    quizzes.push({ id: quiz.id, title, demo, questionIds });
  }

  const users: { id: string; name: string; skill: number }[] = [];
  for (const [i, [name, handle]] of PEOPLE.slice(0, USERS_PER_SET).entries()) {
    const user = await api.ok<{ id: string; name: string }>("POST", "/v1/users", {
      name,
      email: demoEmail(set, handle),
      role: i === 6 ? "instructor" : "student",
    });
    users.push({ ...user, skill: 0.3 + 0.65 * random() });
  }

  // Each user: one attempt at every quiz, so that every question type has graded answers, then a
  // second attempt at the first.
  const plan = users.flatMap((user) => [...quizzes, quizzes[0]!].slice(0, SUBMISSIONS_PER_USER).map((quiz) => ({ user, quiz })));
  const submissions: { id: string }[] = [];
  for (const { user, quiz } of plan) {
    const answers = quiz.demo.questions.flatMap((q, i) => {
      const roll = random();
      if (roll < 0.08) return []; // unanswered: earns 0
      return [{ question_id: quiz.questionIds[i]!, response: roll < user.skill ? pick(q.right) : pick(q.wrong) }];
    });
    submissions.push(await api.ok<{ id: string }>("POST", `/v1/quizzes/${quiz.id}/submissions`, { user_id: user.id, answers }));
  }
  const graded = new Map<string, number>();
  for (const s of submissions.slice(0, submissions.length - LEFT_OPEN)) {
    const grade = await api.ok<{ score: number }>("POST", `/v1/submissions/${s.id}/grade`);
    graded.set(s.id, grade.score);
  }
  const first = submissions[0]!;
  return {
    quiz: quizzes[0]!,
    user: users[0]!,
    submission: { id: first.id, score: graded.get(first.id) ?? null },
    counts: `${quizzes.length} quizzes, ${users.length} users, ${submissions.length} submissions (${graded.size} graded, ${LEFT_OPEN} left open)`,
  };
}

/**
 * A set whose first user exists: "complete" when that user's submissions are all there and the
 * first is graded (a run stopped part-way leaves an incomplete set, which does not count).
 */
async function describeSet(api: Api, user: { id: string; name: string }): Promise<Seeded | undefined> {
  const { submissions } = await api.ok<{ submissions: { id: string; quiz_id: string; score: number | null }[] }>(
    "GET",
    `/v1/users/${user.id}/submissions?limit=${SUBMISSIONS_PER_USER}`,
  );
  const submission = submissions[0];
  if (!submission || submissions.length < SUBMISSIONS_PER_USER || submission.score === null) return undefined;
  const quiz = await api.ok<{ id: string; title: string }>("GET", `/v1/quizzes/${submission.quiz_id}`);
  return { quiz, user, submission };
}

function printUsage(seeded: Seeded, key: string) {
  const auth = `-H "Authorization: Bearer $QUIZ_KEY"`;
  process.stdout.write(`
  quiz        ${seeded.quiz.id}  ${seeded.quiz.title}
  user        ${seeded.user.id}  ${seeded.user.name}
  submission  ${seeded.submission.id}  score ${seeded.submission.score ?? "(open)"}

  With \`npm run dev\` running (it serves this database on ${DEV_URL}):

  export QUIZ_KEY=${key}
  curl -s ${DEV_URL}/v1/submissions/${seeded.submission.id}/results ${auth}
  curl -s ${DEV_URL}/v1/analytics/quiz/${seeded.quiz.id} ${auth}
  curl -s ${DEV_URL}/v1/analytics/user/${seeded.user.id} ${auth}
  curl -s "${DEV_URL}/v1/quizzes/${seeded.quiz.id}/submissions?limit=5" ${auth}

`);
}

async function main() {
  let worker: LocalWorker | undefined;
  let api: Api;
  let credentials: Credentials;
  if (LOCK) {
    process.stdout.write(`npm run dev is running on ${STATE.dir} (${DEV_URL}): seeding through it.\n`);
    credentials = await runningDevKey();
    api = new Api(DEV_URL, credentials.key);
  } else {
    process.stdout.write("Building the bundle as npm run build does …\n");
    const { outfile } = await buildWorker({ outdir: "dist", minify: true });
    worker = await startLocalWorker({ scriptPath: outfile, persistRoot: STATE.persistRoot, quiet: true });
    if (worker.migrationsApplied.length > 0)
      process.stdout.write(`  applied migrations: ${worker.migrationsApplied.join(", ")}\n`);
    credentials = await ensureKey(worker);
    api = new Api(worker.url, credentials.key);
    process.stdout.write(`Seeding through a local worker on ${worker.url} (state in ${STATE.persistRoot}).\n`);
  }
  try {
    // The first set number whose e-mails are free; the first complete set, if any.
    let set = 1;
    let complete: Seeded | undefined;
    for (
      let user = await findUser(api, demoEmail(set, PEOPLE[0][1]));
      user;
      user = await findUser(api, demoEmail(set, PEOPLE[0][1]))
    ) {
      complete ??= await describeSet(api, user);
      set++;
    }
    if (complete && !flags.again) {
      process.stdout.write(
        `Demo data is already there (${set - 1} set${set > 2 ? "s" : ""}): skipped. \`npm run seed -- --again\` adds another set.\n`,
      );
      printUsage(complete, credentials.key);
      return;
    }
    if (set > 1 && !complete) process.stdout.write(`Earlier sets are incomplete (a run stopped part-way); adding set ${set}.\n`);
    const started = Date.now();
    const seeded = await seedSet(api, set);
    process.stdout.write(
      `Added demo set ${set}: ${seeded.counts}, in ${api.requests} requests, ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
    printUsage(seeded, credentials.key);
  } finally {
    await worker?.dispose();
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

await main();
