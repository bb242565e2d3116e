/** A quiz of every question type, and responses to draw from: item analysis and regrade tests share them. */

export const ITEM_QUESTIONS = [
  { type: "true_false", prompt: "True?", correct: true },
  {
    type: "single_choice",
    prompt: "Which?",
    points: 2,
    options: [{ text: "A" }, { text: "B" }, { text: "C" }],
    correct_option_id: "b",
  },
  {
    type: "multiple_choice",
    prompt: "Which ones?",
    points: 1.5,
    options: [{ text: "A" }, { text: "B" }, { text: "C" }, { text: "D" }],
    correct_option_ids: ["a", "c"],
    scoring: "partial",
  },
  { type: "numeric", prompt: "Seven?", points: 0.5, correct_value: 7, tolerance: 0.25 },
  { type: "short_text", prompt: "Capital of France?", points: 3, accepted_answers: ["Paris"] },
];

/** Per question, responses to draw from (null: left unanswered). */
const ITEM_RESPONSES: unknown[][] = [
  [true, false, null],
  ["a", "b", "c", null],
  [["a"], ["a", "c"], ["a", "b", "c"], ["d"], [], null],
  [7, 7.2, 8, null],
  ["Paris", "paris", "Lyon", null],
];

/** Responses to the presented questions; the quiz's i-th question is of ITEM_QUESTIONS[i % 5]'s type. */
export function answersFor(presented: string[], picks: number[], questionIds: string[] = presented) {
  return presented.flatMap((question_id, i) => {
    const q = questionIds.indexOf(question_id);
    const choices = ITEM_RESPONSES[q % ITEM_RESPONSES.length]!;
    const response = choices[(picks[i] ?? 0) % choices.length];
    return response === null ? [] : [{ question_id, response }];
  });
}
