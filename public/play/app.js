// The player: a learner takes one quiz with a learner session's token (CONTRACT §17). The start
// screen reads GET /v1/learner-sessions/current; an attempt is a submission
// (POST /v1/quizzes/{id}/submissions, GET /v1/submissions/{id} with each presented question),
// answered one question at a time and saved as it is typed (answers.js); it ends with a grade
// call, or at its deadline, and the result (result.js). Nothing but this origin is ever reached.

import { byId, fill, h } from "../shared/dom.js";
import { AnswerBook, forgetDevice } from "./answers.js";
import { ApiError, call, get, NetworkError, serverNow, takeSessionToken, useToken } from "./api.js";
import { QUESTION_TYPES } from "./questions.js";
import { renderResult } from "./result.js";
import { announce, show } from "./screens.js";
import {
  attemptLine,
  attemptsText,
  clock,
  minutesLeftAnnouncement,
  minutesText,
  navItemLabel,
  navSummary,
  offlineStatus,
  pointsText,
  questionHeading,
  reviewFlagged,
  reviewUnanswered,
  TEXT,
  when,
} from "./strings.js";
import { tabStore } from "./tab-store.js";
import { renderText } from "./text.js";

/** The attempt this tab is in, so that a reload goes straight back to it. */
const ATTEMPT_KEY = "quiz-player:submission";
const positionKey = (submissionId) => `quiz-player:position:${submissionId}`;
/** How often the page asks whether a closed attempt has been graded (the cron grades within 2 minutes). */
const GRADED_POLL_MS = 3000;
/** Announced politely when this much time is left. */
const ANNOUNCE_AT_SECONDS = [300, 60];
/** So near the deadline, an edit is sent at once rather than after the usual pause. */
const SEND_AT_ONCE_MS = 5000;

let current = null;
/** The open attempt: { submission, questions, book, index, ended } */
let attempt = null;
let timer = null;

function problem(heading, textLine, { retry = false } = {}) {
  stopTimer();
  byId("problem-heading").textContent = heading;
  byId("problem-text").textContent = textLine;
  const extra = byId("problem-return");
  fill(extra);
  extra.hidden = true;
  if (retry) {
    extra.hidden = false;
    extra.append(h("button", { type: "button", class: "primary", onclick: () => boot() }, TEXT.retry));
  } else if (current?.session?.return_url) {
    extra.hidden = false;
    extra.append(returnLink(current.session.return_url));
  }
  show("problem");
}

const returnLink = (url) => h("a", { href: url, rel: "noreferrer", class: "return-link" }, TEXT.returnLink);

/** A failed call: the session's end, a connection problem, or the API's own words. */
function failure(error) {
  if (error instanceof ApiError && error.status === 401) return problem(TEXT.sessionRefused, TEXT.sessionRefusedText);
  const detail = error instanceof NetworkError ? "The connection failed." : error.message;
  return problem(TEXT.loadFailed, detail, { retry: true });
}

async function boot() {
  show("loading", { focus: false });
  const token = takeSessionToken();
  if (!token) return problem(TEXT.noSession, TEXT.noSessionText);
  useToken(token);
  try {
    current = await get("/v1/learner-sessions/current");
  } catch (error) {
    return failure(error);
  }
  document.title = `${current.quiz.title} — Quiz`;
  byId("bar-title").textContent = current.quiz.title;
  byId("attempt-title").textContent = current.quiz.title;
  const remembered = tabStore.getItem(ATTEMPT_KEY);
  const mine = current.submissions.find((s) => s.id === remembered);
  if (mine) return openAttempt(mine.id);
  showStart();
}

// ---------------------------------------------------------------- the start screen

const openSubmission = () =>
  current.submissions.find((s) => s.status === "open" && (s.deadline_at === null || Date.parse(s.deadline_at) > serverNow()));

function windowText({ available_from: from, available_until: until }) {
  if (from && until) return `${when(from)} – ${when(until)}`;
  if (from) return `From ${when(from)}`;
  if (until) return `Until ${when(until)}`;
  return TEXT.noWindow;
}

function showStart() {
  stopTimer();
  const { quiz, attempts, user } = current;
  const settings = quiz.settings;
  byId("quiz-title").textContent = quiz.title;
  byId("quiz-learner").textContent = user.name ? `Taking it as ${user.name}` : "";
  fill(byId("quiz-description"));
  for (const paragraph of (quiz.description ?? "").split(/\n{2,}/).filter((p) => p.trim() !== ""))
    byId("quiz-description").append(renderText(h("p"), paragraph));
  const fact = (term, value, id) => [h("dt", {}, term), h("dd", { id }, value)];
  fill(
    byId("quiz-facts"),
    fact(TEXT.factQuestions, String(quiz.questions), "fact-questions"),
    fact(
      TEXT.factTimeLimit,
      settings.time_limit_seconds ? minutesText(settings.time_limit_seconds) : TEXT.noTimeLimit,
      "fact-time",
    ),
    fact(TEXT.factAttempts, attemptsText(attempts.used, attempts.allowed), "fact-attempts"),
    fact(TEXT.factWindow, windowText(settings), "fact-window"),
  );

  const button = byId("start-attempt");
  const open = openSubmission();
  const now = serverNow();
  let note = settings.time_limit_seconds ? `${TEXT.startNote} ${TEXT.timedNote}` : TEXT.startNote;
  button.hidden = false;
  button.disabled = false;
  if (open) button.textContent = TEXT.resume;
  else if (settings.available_from && now < Date.parse(settings.available_from)) {
    button.hidden = true;
    note = TEXT.notYetOpen;
  } else if (settings.available_until && now >= Date.parse(settings.available_until)) {
    button.hidden = true;
    note = TEXT.closed;
  } else if (attempts.allowed !== null && attempts.used >= attempts.allowed) {
    button.hidden = true;
    note = TEXT.noAttemptsLeft;
  } else button.textContent = TEXT.start;
  byId("start-note").textContent = note;
  byId("start-error").textContent = "";

  // Attempts numbered in the order they were made; the closed ones listed with their results.
  const attemptsInOrder = [...current.submissions].sort((a, b) => a.created_at.localeCompare(b.created_at));
  const past = attemptsInOrder.filter((s) => s.status !== "open");
  byId("past").hidden = past.length === 0;
  fill(
    byId("past-list"),
    past.map((s) => {
      const line = h("span", { id: `attempt-${s.id}` }, attemptLine(attemptsInOrder.indexOf(s) + 1, s.status, s.score));
      return h(
        "li",
        {},
        line,
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "aria-describedby": line.id,
            "data-submission-id": s.id,
            onclick: () => openAttempt(s.id),
          },
          TEXT.viewResult,
        ),
      );
    }),
  );
  const back = byId("start-return");
  fill(back);
  back.hidden = !current.session.return_url;
  if (current.session.return_url) back.append(returnLink(current.session.return_url));
  show("start");
}

byId("start-attempt").addEventListener("click", async () => {
  const button = byId("start-attempt");
  const open = openSubmission();
  if (open) return openAttempt(open.id);
  button.disabled = true;
  button.textContent = TEXT.starting;
  try {
    const created = await call("POST", `/v1/quizzes/${current.quiz.id}/submissions`, { body: { user_id: current.user.id } });
    await openAttempt(created.id);
  } catch (error) {
    button.disabled = false;
    button.textContent = TEXT.start;
    if (error instanceof ApiError && error.status === 401) return failure(error);
    byId("start-error").textContent = error instanceof NetworkError ? "The connection failed: try again." : error.message;
  }
});

// ---------------------------------------------------------------- an attempt

async function openAttempt(submissionId) {
  let submission;
  try {
    submission = await get(`/v1/submissions/${submissionId}`);
  } catch (error) {
    return failure(error);
  }
  tabStore.setItem(ATTEMPT_KEY, submissionId);
  if (submission.status !== "open") return showResult(submission);
  const questions = [...(submission.questions ?? [])].sort((a, b) => a.position - b.position);
  // Each presented question comes with the submission (questions[].question); without them there is nothing to show.
  if (questions.length === 0 || questions.some((q) => !q.question)) return problem(TEXT.loadFailed, TEXT.noQuestions);
  const book = new AnswerBook(submissionId, {
    // A book outlives its attempt (its listeners stay): only the attempt on screen hears it.
    onStatus: () => attempt?.book === book && renderStatus(),
    onAdopted: (questionId) => {
      if (attempt?.book !== book) return;
      renderNav();
      if (attempt && questions[attempt.index]?.question_id === questionId) renderQuestion({ keepFocus: true });
    },
    onClosed: (error) => attempt?.book === book && endInput(error.code === "deadline_passed" ? TEXT.timeUp : TEXT.closedAttempt),
    onSessionEnded: () => problem(TEXT.sessionRefused, TEXT.sessionRefusedText),
    onRejected: (questionId, message) => {
      if (attempt?.book !== book) return;
      attempt.errors.set(questionId, `${TEXT.notSaved} ${message}`);
      if (questions[attempt.index]?.question_id === questionId)
        byId("question-error").textContent = attempt.errors.get(questionId);
    },
  });
  const stored = Number(tabStore.getItem(positionKey(submissionId)));
  attempt = {
    submission,
    questions,
    book,
    index: Number.isInteger(stored) && stored >= 0 && stored < questions.length ? stored : 0,
    ended: false,
    deadline: null,
    errors: new Map(),
    wasOffline: book.offline,
  };
  book.load(submission.answers);
  byId("save-status").hidden = false;
  renderStatus();
  renderNav();
  renderQuestion();
  show("attempt");
  startTimer(submission.deadline_at);
}

function renderStatus() {
  if (!attempt) return;
  const { state, waiting } = attempt.book.status();
  const line = byId("save-status");
  line.dataset.state = state;
  line.textContent = state === "offline" ? offlineStatus(waiting) : state === "saving" ? TEXT.saving : TEXT.saved;
  const offline = attempt.book.offline;
  if (offline !== attempt.wasOffline) {
    attempt.wasOffline = offline;
    announce(offline ? TEXT.offlineAnnounce : TEXT.onlineAnnounce);
  }
  if (!byId("review").hidden) renderReviewWaiting();
}

function renderNav() {
  const { questions, book, index } = attempt;
  let answered = 0;
  let flagged = 0;
  fill(
    byId("question-list"),
    questions.map((q, i) => {
      const isAnswered = book.isAnswered(q.question_id);
      const isFlagged = book.isFlagged(q.question_id);
      if (isAnswered) answered += 1;
      if (isFlagged) flagged += 1;
      return h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `nav-item${isAnswered ? " answered" : ""}${isFlagged ? " flagged" : ""}`,
            "aria-current": i === index ? "step" : null,
            "data-question-id": q.question_id,
            onclick: () => goTo(i),
          },
          h("span", { class: "visually-hidden" }, navItemLabel(i + 1, isAnswered, isFlagged)),
          h("span", { class: "nav-number", "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "nav-marks", "aria-hidden": "true" }, isAnswered ? "✓" : "", isFlagged ? "⚑" : ""),
        ),
      );
    }),
  );
  byId("question-nav-summary").textContent = navSummary(answered, questions.length, flagged);
}

function goTo(index) {
  if (!attempt) return;
  attempt.index = Math.max(0, Math.min(index, attempt.questions.length - 1));
  tabStore.setItem(positionKey(attempt.submission.id), String(attempt.index));
  renderNav();
  renderQuestion();
  show("attempt");
}

function renderQuestion({ keepFocus = false } = {}) {
  const { questions, book, index } = attempt;
  const entry = questions[index];
  const question = entry.question;
  const body = byId("question-body");
  // Another tab's newer answer redraws the controls; the learner's place among them is kept.
  const focusables = () => [...body.querySelectorAll("input, select, textarea, button")];
  const focusedAt = keepFocus ? focusables().indexOf(document.activeElement) : -1;

  byId("question-heading").textContent = questionHeading(index + 1, questions.length);
  byId("question-points").textContent = pointsText(question.points);
  const promptId = `prompt-${entry.question_id}`;
  const type = QUESTION_TYPES[question.type];
  const controls = type
    ? type.render({
        question,
        order: entry.option_order,
        response: book.response(entry.question_id),
        promptId,
        announce,
        onChange: (response) => answerChanged(entry.question_id, response),
      })
    : h("p", { class: "error" }, `This page cannot show a ${question.type} question.`);
  fill(body, renderText(h("div", { class: "prompt", id: promptId }), question.prompt, question.content_format), controls);
  if (attempt.ended) for (const control of focusables()) control.disabled = true;
  if (focusedAt >= 0) focusables()[focusedAt]?.focus();

  byId("question-error").textContent = attempt.errors.get(entry.question_id) ?? "";
  const flag = byId("flag");
  flag.setAttribute("aria-pressed", String(book.isFlagged(entry.question_id)));
  byId("clear-answer").hidden = !book.isAnswered(entry.question_id) || attempt.ended;
  byId("previous").disabled = index === 0;
  byId("next").textContent = index === questions.length - 1 ? TEXT.reviewAndSubmit : TEXT.next;
  for (const id of ["flag", "clear-answer", "previous", "next", "open-review"]) if (attempt.ended) byId(id).disabled = true;
}

function answerChanged(questionId, response) {
  if (!attempt || attempt.ended) return;
  attempt.errors.delete(questionId);
  byId("question-error").textContent = "";
  attempt.book.edit(questionId, response);
  if (attempt.deadline !== null && attempt.deadline - serverNow() < SEND_AT_ONCE_MS) attempt.book.flush();
  byId("clear-answer").hidden = response === null;
  renderNav();
}

byId("flag").addEventListener("click", () => {
  const entry = attempt.questions[attempt.index];
  const on = !attempt.book.isFlagged(entry.question_id);
  attempt.book.setFlag(entry.question_id, on);
  byId("flag").setAttribute("aria-pressed", String(on));
  renderNav();
});

byId("clear-answer").addEventListener("click", () => {
  const entry = attempt.questions[attempt.index];
  answerChanged(entry.question_id, null);
  renderQuestion();
  byId("question-body").querySelector("input, select, textarea, button")?.focus();
});

byId("previous").addEventListener("click", () => {
  goTo(attempt.index - 1);
});
byId("next").addEventListener("click", () => {
  if (attempt.index === attempt.questions.length - 1) openReview();
  else goTo(attempt.index + 1);
});
byId("open-review").addEventListener("click", () => openReview());

// ---------------------------------------------------------------- review and submit

function openReview() {
  const { questions, book } = attempt;
  const unanswered = [];
  const flagged = [];
  questions.forEach((q, i) => {
    if (!book.isAnswered(q.question_id)) unanswered.push(i + 1);
    if (book.isFlagged(q.question_id)) flagged.push(i + 1);
  });
  const summary = [];
  if (unanswered.length > 0) summary.push(h("p", { id: "review-unanswered" }, reviewUnanswered(unanswered)));
  else summary.push(h("p", { id: "review-unanswered" }, TEXT.allAnswered));
  if (flagged.length > 0) summary.push(h("p", { id: "review-flagged" }, reviewFlagged(flagged)));
  fill(byId("review-summary"), summary);
  fill(
    byId("review-list"),
    questions.map((q, i) => {
      const states = [book.isAnswered(q.question_id) ? TEXT.answered : TEXT.unanswered];
      if (book.isFlagged(q.question_id)) states.push(TEXT.flagged);
      return h(
        "li",
        { class: book.isAnswered(q.question_id) ? "answered" : "unanswered" },
        h("button", { type: "button", class: "link-button", onclick: () => goTo(i) }, questionHeading(i + 1, questions.length)),
        h("span", {}, ` — ${states.join(", ")}`),
      );
    }),
  );
  byId("submit").disabled = false;
  byId("submit").textContent = TEXT.submit;
  renderReviewWaiting();
  show("review");
}

function renderReviewWaiting() {
  const { state } = attempt.book.status();
  byId("review-waiting").textContent =
    state === "offline" ? `${offlineStatus(attempt.book.pending().length)}. ${TEXT.waitingBeforeSubmit}` : "";
}

byId("back-to-questions").addEventListener("click", () => goTo(attempt.index));

byId("submit").addEventListener("click", async () => {
  const button = byId("submit");
  button.disabled = true;
  button.textContent = TEXT.submitting;
  const saved = await attempt.book.settleAll();
  if (!saved && !attempt.book.closed) {
    button.disabled = false;
    button.textContent = TEXT.submit;
    byId("review-waiting").textContent = TEXT.waitingBeforeSubmit;
    return;
  }
  try {
    await call("POST", `/v1/submissions/${attempt.submission.id}/grade`);
  } catch (error) {
    button.disabled = false;
    button.textContent = TEXT.submit;
    if (error instanceof ApiError && error.status === 401) return failure(error);
    byId("review-waiting").textContent = error instanceof NetworkError ? TEXT.waitingBeforeSubmit : error.message;
    return;
  }
  const submission = attempt.submission;
  endAttempt();
  await showResult({ ...submission, status: "graded" });
});

// ---------------------------------------------------------------- the timer and the deadline

function stopTimer() {
  clearInterval(timer);
  timer = null;
  byId("timer").hidden = true;
}

function startTimer(deadlineAt) {
  stopTimer();
  attempt.deadline = deadlineAt ? Date.parse(deadlineAt) : null;
  if (attempt.deadline === null) return;
  byId("timer").hidden = false;
  let previous = attempt.deadline - serverNow();
  const tick = () => {
    const left = attempt.deadline - serverNow();
    byId("timer-value").textContent = clock(left);
    byId("timer").dataset.state = left <= 60_000 ? "last-minute" : left <= 300_000 ? "warning" : "";
    for (const seconds of ANNOUNCE_AT_SECONDS)
      if (previous > seconds * 1000 && left <= seconds * 1000 && left > 0) announce(minutesLeftAnnouncement(seconds / 60));
    previous = left;
    if (left <= 0) {
      stopTimer();
      endInput();
    }
  };
  tick();
  timer = setInterval(tick, 1000);
}

/** No more answers: the deadline passed, or the server says the attempt is closed. */
function endInput(heading = TEXT.timeUp) {
  if (!attempt || attempt.ended) return;
  attempt.ended = true;
  attempt.book.closed = true;
  stopTimer();
  for (const control of byId("attempt").querySelectorAll("input, select, textarea, button")) control.disabled = true;
  byId("grading-heading").textContent = heading;
  byId("grading-text").textContent = `${TEXT.beingGraded}. ${TEXT.beingGradedText}`;
  show("grading");
  announce(`${heading}. ${TEXT.beingGraded}.`);
  waitForGrade(attempt.submission.id);
}

async function waitForGrade(submissionId) {
  for (;;) {
    await new Promise((done) => setTimeout(done, GRADED_POLL_MS));
    try {
      const submission = await get(`/v1/submissions/${submissionId}`);
      if (submission.status !== "open") {
        endAttempt();
        return showResult(submission);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return failure(error);
      // Offline or failing: ask again at the next turn.
    }
  }
}

function endAttempt() {
  if (!attempt) return;
  // Its book stops too: nothing more is written for this submission.
  attempt.book.closed = true;
  stopTimer();
  byId("save-status").hidden = true;
  attempt = null;
}

// ---------------------------------------------------------------- the result

async function showResult(submission) {
  let results;
  let full = submission;
  try {
    [results, full] = await Promise.all([
      get(`/v1/submissions/${submission.id}/results`),
      submission.questions?.[0]?.question ? submission : get(`/v1/submissions/${submission.id}`),
    ]);
    current = await get("/v1/learner-sessions/current");
  } catch (error) {
    return failure(error);
  }
  forgetDevice(submission.id);
  renderResult(results, full, current);
  const actions = byId("result-actions");
  fill(
    actions,
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          tabStore.removeItem(ATTEMPT_KEY);
          showStart();
        },
      },
      TEXT.startScreen,
    ),
    current.session.return_url ? returnLink(current.session.return_url) : null,
  );
  show("result");
}

boot();
