// A quiz whose report shows every part of /reports/: graded attempts of twelve students spread
// over the score range, a discriminating item, one everybody gets right (too easy), one the
// weakest gets right and the strong miss for the same distractor (too hard, negative
// discrimination, a distractor attracting the strong), a multiple choice scored partially, a
// numeric item, and texts that look like HTML. Seeded through the API as a client would.
// Used by the report's browser tests (test/e2e/report-page.test.ts) and its screenshots
// (scripts/report-screenshot.ts).

export const DEMO_QUIZ_TITLE = "Cell biology, unit 2";
/** A title that would be markup if the page parsed API text as HTML. */
export const MARKUP_TITLE = '<img src="/x" data-injected="1"> Lab safety & <b>"hazards"</b>';

const QUESTIONS = [
  {
    type: "single_choice",
    prompt: "Which organelle makes most of a cell's ATP?",
    options: [
      { id: "a", text: "Mitochondrion" },
      { id: "b", text: "Nucleus" },
      { id: "c", text: "Ribosome" },
      { id: "d", text: "Golgi apparatus" },
    ],
    correct_option_id: "a",
  },
  { type: "true_false", prompt: "Plant cells have a cell wall.", correct: true },
  {
    type: "single_choice",
    prompt: "Which structure is found in prokaryotes?",
    points: 2,
    options: [
      { id: "a", text: "Nucleus" },
      { id: "b", text: "Mitochondrion" },
      { id: "c", text: "Endoplasmic reticulum" },
      { id: "d", text: "Ribosome" },
    ],
    correct_option_id: "d",
  },
  {
    type: "multiple_choice",
    prompt: "Which of these are lipids?",
    options: [
      { id: "a", text: "Phospholipids" },
      { id: "b", text: "Glycogen" },
      { id: "c", text: "Cholesterol" },
      { id: "d", text: "Keratin" },
    ],
    correct_option_ids: ["a", "c"],
    scoring: "partial",
  },
  { type: "numeric", prompt: "How many chromosomes are in a human body cell?", correct_value: 46 },
  {
    type: "single_choice",
    prompt: 'Which stain marks the <nucleus> & "DNA"?',
    options: [
      { id: "a", text: "Iodine" },
      { id: "b", text: "<script>alert(1)</script>" },
      { id: "c", text: "Methylene blue" },
    ],
    correct_option_id: "c",
  },
];

/** Each student's responses, strongest first; null: left unanswered. */
const RESPONSES: unknown[][] = [
  ["a", true, "b", ["a", "c"], 46, "c"],
  ["a", true, "b", ["a", "c"], 46, "c"],
  ["a", true, "c", ["a", "c"], 46, "c"],
  ["a", true, "b", ["a"], 46, "b"],
  ["a", true, "a", ["a", "c"], 46, "c"],
  ["a", true, "b", ["c"], 23, "c"],
  ["a", true, "c", ["a"], 46, "a"],
  ["b", true, "b", ["b"], 48, "c"],
  ["c", true, "b", ["a", "b"], 46, "b"],
  ["b", true, "c", ["d"], 23, "a"],
  ["d", true, "a", ["b", "d"], null, "a"],
  ["c", true, "d", null, null, "b"],
];

/** Quizzes made before the demo quiz, so that it is on the second page of a 20-quiz list. */
export const FILLER_QUIZZES = 20;

type Call = (path: string, init?: { method?: string; body?: unknown }) => Promise<{ status: number; json: any }>;

/** Calls to the API at origin with an admin key. */
export function apiClient(origin: string, key: string): Call {
  return async (path, init = {}) => {
    const res = await fetch(new URL(path, origin), {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: { Authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
}

async function expectStatus(call: Call, path: string, init: { method?: string; body?: unknown }, status: number) {
  const res = await call(path, init);
  if (res.status !== status) throw new Error(`${init.method ?? "POST"} ${path} → ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/** Seeds the filler quizzes, the markup-titled quiz and the demo quiz with its graded attempts; answers the demo quiz's id. */
export async function seedReportDemo(call: Call): Promise<{ quizId: string; markupQuizId: string }> {
  for (let i = 1; i <= FILLER_QUIZZES; i++)
    await expectStatus(call, "/v1/quizzes", { body: { title: `Practice quiz ${String(i).padStart(2, "0")}` } }, 201);
  const markup = await expectStatus(call, "/v1/quizzes", { body: { title: MARKUP_TITLE, questions: [QUESTIONS[1]] } }, 201);
  const quiz = await expectStatus(call, "/v1/quizzes", { body: { title: DEMO_QUIZ_TITLE, questions: QUESTIONS } }, 201);
  const questionIds = quiz.question_ids as string[];
  for (const [i, responses] of RESPONSES.entries()) {
    const user = await expectStatus(
      call,
      "/v1/users",
      { body: { name: `Student ${i + 1}`, email: `student${i + 1}@school.example` } },
      201,
    );
    const answers = responses.flatMap((response, q) => (response === null ? [] : [{ question_id: questionIds[q], response }]));
    const submission = await expectStatus(
      call,
      `/v1/quizzes/${quiz.id}/submissions`,
      { body: { user_id: user.id, answers } },
      201,
    );
    await expectStatus(call, `/v1/submissions/${submission.id}/grade`, { method: "POST" }, 200);
  }
  return { quizId: quiz.id as string, markupQuizId: markup.id as string };
}
