// A quiz with a question of each of the nine types, a learner, and a learner session whose
// player_url opens it in the player (/play/): seeded through the API as a school's server would.
// Used by the player's browser tests (test/e2e/player.test.ts) and its screenshots
// (scripts/player-screenshot.ts). Also a quiz of formatted ("html") questions, chemistry, an
// equation, a picture, a table and a link (createContentQuiz; test/e2e/player-content.test.ts and
// docs/images/player-math.png).
//
// npx tsx scripts/player-demo.ts [--origin URL --key KEY]: seeds a running server (an admin or
// learners:write + quizzes:write + users:write key) and prints the player_url; without --origin it
// builds the bundle, serves it with Miniflare over a throw-away D1 and KV (scripts/local-worker.ts),
// seeds that, prints the player_url and serves until Ctrl-C.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { newApiKey } from "../src/auth/api-keys";
import { buildWorker } from "./build";
import { startLocalWorker } from "./local-worker";
import { apiClient } from "./report-demo";

type Call = ReturnType<typeof apiClient>;

export const PLAYER_QUIZ_TITLE = "The solar system, and a little more";
export const PLAYER_QUIZ_DESCRIPTION =
  "Nine questions, one of each kind the player shows.\n\nAnswers are saved as you type; you can leave and come back.";

/** One question of each type, in the quiz's order (the presented order, as the quiz shuffles nothing). */
export const PLAYER_QUESTIONS = [
  {
    type: "single_choice",
    prompt: "Which planet is closest to the Sun?",
    options: [
      { id: "a", text: "Venus" },
      { id: "b", text: "Mercury" },
      { id: "c", text: "Mars" },
      { id: "d", text: "Earth" },
    ],
    correct_option_id: "b",
    feedback: { correct: "Yes: Mercury orbits at about 0.39 AU.", incorrect: "Mercury is the closest." },
  },
  {
    type: "multiple_choice",
    prompt: "Which of these are gas giants?",
    options: [
      { id: "a", text: "Jupiter" },
      { id: "b", text: "Mars" },
      { id: "c", text: "Saturn" },
      { id: "d", text: "Venus" },
    ],
    correct_option_ids: ["a", "c"],
    scoring: "partial",
  },
  { type: "true_false", prompt: "The Moon has no atmosphere to speak of.", correct: true },
  {
    type: "short_text",
    prompt: "What is the name of the largest volcano on Mars?",
    accepted_answers: ["Olympus Mons"],
  },
  {
    type: "numeric",
    prompt: "How many planets are in the Solar System?",
    correct_value: 8,
    explanation: "Pluto was reclassified as a dwarf planet in 2006.",
  },
  {
    type: "ordering",
    prompt: "Put these planets in order of their distance from the Sun, nearest first.",
    items: [{ text: "Venus" }, { text: "Earth" }, { text: "Jupiter" }, { text: "Neptune" }],
    scoring: "partial",
    points: 2,
  },
  {
    type: "matching",
    prompt: "Match each moon to its planet.",
    pairs: [
      { prompt: "Titan", choice: "Saturn" },
      { prompt: "Europa", choice: "Jupiter" },
      { prompt: "Triton", choice: "Neptune" },
    ],
    distractors: ["Uranus"],
    scoring: "partial",
    points: 3,
  },
  {
    type: "fill_in_blanks",
    prompt: "Complete the sentence.",
    text: "Light from the Sun takes about {{minutes}} minutes to reach {{planet}}.",
    blanks: [
      { id: "minutes", accepted_answers: ["8", "eight"] },
      { id: "planet", accepted_answers: ["Earth", "the Earth"] },
    ],
  },
  {
    type: "essay",
    prompt: "Why do we have seasons? Answer in a few sentences.",
    points: 4,
    max_words: 200,
    rubric: "Axial tilt (2); not distance (1); clarity (1).",
  },
] as const;

export const CONTENT_QUIZ_TITLE = "Formulas, equations and a picture";
/** The picture's alt text, as the learner's assistive technology reads it. */
export const CONTENT_IMAGE_ALT = "Six coloured stripes, from dark red to bright orange";

/**
 * The formatted questions (content_format "html"), the picture at `imageUrl` (an asset of the
 * service). Their TeX (between \( \) and \[ \]) is stored as MathML. The matching's last prompt and
 * the true-or-false's prompt carry markup the service removes on write (a script, a handler, a
 * javascript: link, a style): what the player is given is the sanitized rest.
 */
export function contentQuestions(imageUrl: string) {
  const html = { content_format: "html" } as const;
  return [
    {
      ...html,
      type: "numeric",
      prompt:
        "<p>Solve the quadratic equation</p><p>\\[x^2 - 5x + 6 = 0\\]</p><p>What is its <strong>larger</strong> root \\(x\\)?</p>",
      correct_value: 3,
      explanation: "<p>It factors as \\((x - 2)(x - 3) = 0\\), so \\(x = \\frac{5 \\pm 1}{2}\\): 2 and 3.</p>",
      feedback: {
        correct: "<p>Right: <em>x</em> = 3.</p>",
        incorrect: "<p>Try factoring: \\(x^2 - 5x + 6 = (x - a)(x - b)\\).</p>",
      },
    },
    {
      ...html,
      type: "single_choice",
      prompt: "<p>Which is the formula of <strong>sulfuric acid</strong>?</p>",
      options: [
        { id: "a", text: "H<sub>2</sub>SO<sub>3</sub>" },
        { id: "b", text: "H<sub>2</sub>SO<sub>4</sub>" },
        { id: "c", text: "HSO<sub>4</sub><sup>−</sup>" },
      ],
      correct_option_id: "b",
      feedback: { correct: "<p>Yes: H<sub>2</sub>SO<sub>4</sub>.</p>" },
    },
    {
      ...html,
      type: "multiple_choice",
      prompt: `<figure><img src="${imageUrl}" alt="${CONTENT_IMAGE_ALT}" width="120" height="40"><figcaption>A picture of stripes.</figcaption></figure><p>Which colours does the picture show?</p>`,
      options: [
        { id: "a", text: "<em>Red</em>" },
        { id: "b", text: "<em>Orange</em>" },
        { id: "c", text: "<em>Blue</em>" },
      ],
      correct_option_ids: ["a", "b"],
      scoring: "partial",
    },
    {
      ...html,
      type: "fill_in_blanks",
      prompt: "<p>Complete the table of boiling points at sea level.</p>",
      text: '<table><caption>Boiling points</caption><thead><tr><th scope="col">Substance</th><th scope="col">Formula</th><th scope="col">°C</th></tr></thead><tbody><tr><td>Water</td><td>H<sub>2</sub>O</td><td>{{water}}</td></tr></tbody></table><p>Ethanol, C<sub>2</sub>H<sub>5</sub>OH, boils at {{ethanol}} °C.</p>',
      blanks: [
        { id: "water", accepted_answers: ["100"] },
        { id: "ethanol", accepted_answers: ["78"] },
      ],
    },
    {
      ...html,
      type: "true_false",
      prompt:
        '<p>The <a href="https://iupac.org/what-we-do/periodic-table-of-elements/">IUPAC periodic table</a> gives gold the symbol <code>Au</code>.</p><script>window.__ran = "script"</script><p onclick="window.__ran = \'onclick\'" style="color:red"><a href="javascript:window.__ran=1">Nothing runs here.</a></p>',
      correct: true,
    },
    {
      ...html,
      type: "matching",
      prompt: "<p>Match each formula to its name.</p>",
      pairs: [
        { prompt: "H<sub>2</sub>O", choice: "<em>water</em>" },
        { prompt: "CO<sub>2</sub>", choice: "<em>carbon dioxide</em>" },
        { prompt: 'NaCl<img src="x" onerror="window.__ran = \'img\'">', choice: "<em>sodium chloride</em>" },
      ],
      scoring: "partial",
    },
  ];
}

/**
 * A quiz of the formatted questions, with a real PNG (`png`, its bytes) uploaded through
 * POST /v1/assets for the picture; answers its id, question ids and the asset.
 */
export async function createContentQuiz(
  call: Call,
  upload: (bytes: Uint8Array) => Promise<{ id: string; url: string }>,
  png: Uint8Array,
  settings: Record<string, unknown> = {},
) {
  const asset = await upload(png);
  const quiz = await expectStatus(
    call,
    "/v1/quizzes",
    {
      body: {
        title: CONTENT_QUIZ_TITLE,
        settings: { max_attempts: 3, show_correct_answers: "always", ...settings },
        questions: contentQuestions(asset.url),
      },
    },
    201,
  );
  return { quizId: quiz.id as string, questionIds: quiz.question_ids as string[], asset };
}

/** POST /v1/assets with `key`: the PNG's bytes as the body (201 a new asset, 200 the same bytes' asset again). */
export function assetUploader(origin: string, key: string) {
  return async (bytes: Uint8Array) => {
    const res = await fetch(new URL("/v1/assets", origin), {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "image/png" },
      body: bytes,
    });
    const json = (await res.json()) as { id: string; url: string };
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST /v1/assets → ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
}

async function expectStatus(call: Call, path: string, init: { method?: string; body?: unknown }, status: number) {
  const res = await call(path, init);
  if (res.status !== status) throw new Error(`${init.method ?? "POST"} ${path} → ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/** A quiz of the nine questions (settings as given), and its id and question ids. */
export async function createPlayerQuiz(call: Call, settings: Record<string, unknown> = {}, title = PLAYER_QUIZ_TITLE) {
  const quiz = await expectStatus(
    call,
    "/v1/quizzes",
    {
      body: {
        title,
        description: PLAYER_QUIZ_DESCRIPTION,
        settings: { max_attempts: 3, show_correct_answers: "always", ...settings },
        questions: PLAYER_QUESTIONS,
      },
    },
    201,
  );
  return { quizId: quiz.id as string, questionIds: quiz.question_ids as string[] };
}

/** A new learner (no e-mail, as pupils often have none). */
export async function createLearner(call: Call, name = "Sam Rivera"): Promise<string> {
  const user = await expectStatus(call, "/v1/users", { body: { name } }, 201);
  return user.id as string;
}

/** A learner session for the user at the quiz: its token and player_url (`<origin>/play/#session=<token>`). */
export async function createLearnerSession(
  call: Call,
  body: { user_id: string; quiz_id: string; return_url?: string; expires_in?: number },
): Promise<{ id: string; token: string; playerUrl: string }> {
  const session = await expectStatus(call, "/v1/learner-sessions", { body }, 201);
  return { id: session.id, token: session.token, playerUrl: session.player_url };
}

/** The demo: the quiz, a learner and a session with a return_url. */
export async function seedPlayerDemo(call: Call, returnUrl = "https://lms.example.org/course/7") {
  const { quizId, questionIds } = await createPlayerQuiz(call, { time_limit_seconds: 1800 });
  const userId = await createLearner(call);
  const session = await createLearnerSession(call, { user_id: userId, quiz_id: quizId, return_url: returnUrl });
  return { quizId, questionIds, userId, session };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { origin: { type: "string" }, key: { type: "string" } } });
  if (values.origin) {
    if (!values.key) throw new Error("--origin needs --key (an admin key of that server)");
    const demo = await seedPlayerDemo(apiClient(values.origin, values.key));
    process.stdout.write(`${demo.session.playerUrl}\n`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), "player-demo-"));
    const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: true });
    const worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(dir, "state"), quiet: true });
    const { key, row } = await newApiKey({ name: "player demo", scopes: ["admin"], expiresAt: null });
    await (await worker.mf.getD1Database("DB"))
      .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
      .run();
    const demo = await seedPlayerDemo(apiClient(worker.url, key));
    process.stdout.write(`serving at ${worker.url} (Ctrl-C stops); open the quiz at\n${demo.session.playerUrl}\n`);
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.on(
        signal,
        () =>
          void worker.dispose().then(() => {
            rmSync(dir, { recursive: true, force: true });
            process.exit(0);
          }),
      );
  }
}
