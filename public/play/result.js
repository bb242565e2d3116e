// A graded attempt: the score and the feedback, and each question's result when the quiz's
// reveal policy shows it (the results then carry each answer's correct_answer), else a sentence
// saying when it will be shown.
import { fill, h } from "../shared/dom.js";
import { QUESTION_TYPES } from "./questions.js";
import { pointsEarnedText, pointsOfText, questionHeading, revealAfter, scoreText, TEXT, when } from "./strings.js";
import { blockFor, renderText } from "./text.js";

const text = (tag, value, attributes, format) => renderText(h(tag, attributes), value, format);

/** When each question's result will be shown, as the quiz's settings say. */
function revealSentence(settings, allowed, submission) {
  switch (settings?.show_correct_answers) {
    case "never":
      return TEXT.revealNever;
    case "after_last_attempt":
      return allowed === null ? TEXT.revealUnlimited : TEXT.revealAfterLastAttempt;
    case "after_due":
      if (settings.available_until) return revealAfter(when(settings.available_until));
      if (submission?.deadline_at) return revealAfter(when(submission.deadline_at));
      return TEXT.revealAfterDue;
    default:
      return TEXT.revealAfterDue;
  }
}

const lines = (list) =>
  list.length <= 1
    ? text("p", list[0] ?? TEXT.noAnswer)
    : h(
        "ul",
        {},
        list.map((line) => text("li", line)),
      );

function verdict(answer) {
  if (answer.points_earned === null) return TEXT.awaitingReview;
  if (answer.correct) return TEXT.correct;
  return answer.points_earned > 0 ? TEXT.partlyCorrect : TEXT.incorrect;
}

function questionResult(answer, entry, n, total) {
  const question = entry?.question ?? { type: answer.type };
  // The question's texts in its format; the feedback and explanation an answer carries are the question's.
  const format = question.content_format;
  const block = blockFor(format);
  const type = QUESTION_TYPES[answer.type];
  const answered = answer.response !== null && answer.response !== undefined;
  const key = answer.type === "essay" ? [] : type.key(question, answer.correct_answer);
  const state =
    answer.points_earned === null ? "review" : answer.correct ? "correct" : answer.points_earned > 0 ? "partial" : "incorrect";
  return h(
    "li",
    { class: `result-question ${state}`, "data-question-id": answer.question_id },
    h("h3", {}, questionHeading(n, total)),
    text(block, question.prompt ?? "", { class: "prompt" }, format),
    h(
      "p",
      { class: "verdict" },
      h("strong", {}, verdict(answer)),
      answer.points_earned === null ? "" : ` — ${pointsEarnedText(answer.points_earned, answer.points_possible)}`,
    ),
    h(
      "dl",
      { class: "answer-lines" },
      h("dt", {}, TEXT.yourAnswer),
      h("dd", {}, answered ? lines(type.response(question, answer.response)) : text("p", TEXT.noAnswer)),
      key.length > 0 ? [h("dt", {}, TEXT.correctAnswer), h("dd", {}, lines(key))] : [],
    ),
    answer.feedback ? text(block, answer.feedback, { class: "feedback" }, format) : null,
    answer.explanation ? text(block, answer.explanation, { class: "explanation" }, format) : null,
  );
}

/**
 * Writes the result into the result screen.
 * @param results GET /v1/submissions/{id}/results
 * @param submission GET /v1/submissions/{id} (its questions, in the order they were presented)
 * @param current GET /v1/learner-sessions/current
 */
export function renderResult(results, submission, current) {
  const summary = h(
    "div",
    { class: "score-card" },
    h("p", { class: "score", id: "result-score" }, scoreText(results.score)),
    h("p", { class: "points" }, pointsOfText(results.points_earned, results.points_possible)),
    text("p", results.feedback, { class: "feedback", id: "result-feedback" }),
    results.status === "needs_review" ? h("p", { class: "note" }, TEXT.provisional) : null,
  );
  fill(document.getElementById("result-summary"), summary);

  const entries = new Map((submission?.questions ?? []).map((q) => [q.question_id, q]));
  const order = (submission?.questions ?? []).map((q) => q.question_id);
  const answers = [...results.answers].sort((a, b) => order.indexOf(a.question_id) - order.indexOf(b.question_id));
  const revealed = answers.some((answer) => Object.hasOwn(answer, "correct_answer"));
  const questions = document.getElementById("result-questions");
  if (revealed) {
    fill(
      questions,
      h("h2", {}, "Each question"),
      h(
        "ol",
        { class: "result-list" },
        answers.map((answer, i) => questionResult(answer, entries.get(answer.question_id), i + 1, answers.length)),
      ),
    );
  } else {
    fill(
      questions,
      h(
        "p",
        { class: "note", id: "reveal-note" },
        revealSentence(current?.quiz?.settings, current?.attempts?.allowed ?? null, submission),
      ),
    );
  }
}
