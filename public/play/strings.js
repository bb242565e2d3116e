// Every sentence the player shows or announces, in one table (and the few that take values, as
// functions beside it), so that wording is reviewed, and one day translated, in one place.
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

export const TEXT = {
  loading: "Loading the quiz…",
  noSession: "No quiz session",
  noSessionText:
    "This page opens from a link your school or course gives you. Open that link again (it starts a new session); this page cannot be used on its own.",
  sessionRefused: "This quiz session has ended",
  sessionRefusedText:
    "The session is no longer valid (it expired or was closed). Open the quiz again from your course to get a new one; answers saved so far are kept.",
  loadFailed: "The quiz could not be loaded",
  retry: "Try again",
  noQuestions: "This attempt's questions did not come with it. Try again, or ask your teacher.",
  start: "Start the attempt",
  resume: "Resume the attempt",
  starting: "Starting…",
  noTimeLimit: "No time limit",
  unlimited: "unlimited",
  noWindow: "Always open",
  factTimeLimit: "Time limit",
  factAttempts: "Attempts used",
  factWindow: "Open",
  factQuestions: "Questions",
  notYetOpen: "This quiz is not open yet.",
  closed: "This quiz is closed.",
  noAttemptsLeft: "You have used all your attempts at this quiz.",
  startNote: "Your answers are saved as you go. You can leave and come back to this attempt until time runs out.",
  timedNote: "The timer starts when you start the attempt and does not stop if you leave the page.",
  viewResult: "View the result",
  returnLink: "Return to your course",
  flag: "Flag for review",
  unflag: "Remove the flag",
  clearAnswer: "Clear answer",
  previous: "Previous",
  next: "Next",
  reviewAndSubmit: "Review and submit",
  answered: "answered",
  unanswered: "not answered",
  flagged: "flagged",
  saved: "Saved",
  saving: "Saving…",
  notSaved: "This answer was not saved:",
  offlineAnnounce: "You are offline. Your answers are kept on this device and sent when the connection returns.",
  onlineAnnounce: "Back online. Your answers are being sent.",
  allAnswered: "Every question is answered.",
  submit: "Submit answers",
  submitting: "Submitting…",
  waitingBeforeSubmit: "Some answers are still waiting to be saved. Submit once the page says Saved.",
  backToQuestions: "Back to the questions",
  timeUp: "Time is up",
  beingGraded: "Your attempt is being graded",
  beingGradedText: "Your answers were saved and can no longer be changed. The result appears here once it is ready.",
  closedAttempt: "This attempt is closed",
  result: "Your result",
  provisional: "Some answers are reviewed by a teacher: this score is provisional until they are.",
  yourAnswer: "Your answer",
  correctAnswer: "Correct answer",
  noAnswer: "No answer",
  correct: "Correct",
  partlyCorrect: "Partly correct",
  incorrect: "Incorrect",
  awaitingReview: "Waiting for a teacher's review",
  revealNever: "This quiz does not show each question's result.",
  revealAfterLastAttempt: "Each question's result is shown once you have used your last attempt.",
  revealUnlimited: "This quiz does not show each question's result while more attempts are allowed.",
  revealAfterDue: "Each question's result is shown after the quiz closes.",
  startScreen: "Back to the start",
  multipleHelp: "Choose every answer that applies.",
  orderingHelp: "Put the items in order with the Move up and Move down buttons.",
  keepOrder: "Answer with this order",
  matchingPlaceholder: "Choose…",
  numericHelp: "A number, such as 42 or 3.5.",
  notANumber: "Enter a number, such as 42 or 3.5: this answer is not saved until it is one.",
  true: "True",
  false: "False",
  essayLabel: "Your answer",
  shortTextLabel: "Your answer",
  numericLabel: "Your answer (a number)",
};

export const questionHeading = (n, total) => `Question ${n} of ${total}`;
export const pointsText = (points) => plural(points, "point", "points");
export const attemptsText = (used, allowed) => (allowed === null ? `${used} (${TEXT.unlimited})` : `${used} of ${allowed}`);
export const minutesText = (seconds) => {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return plural(minutes, "minute", "minutes");
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? plural(hours, "hour", "hours") : `${plural(hours, "hour", "hours")} ${plural(rest, "minute", "minutes")}`;
};
export const offlineStatus = (n) => `Offline — ${plural(n, "answer", "answers")} waiting`;
export const minutesLeftAnnouncement = (minutes) => `${plural(minutes, "minute", "minutes")} left.`;
export const navSummary = (answered, total, flagged) =>
  `${answered} of ${total} answered${flagged ? `, ${flagged} flagged` : ""}`;
export const navItemLabel = (n, answered, flagged) =>
  `Question ${n}, ${answered ? TEXT.answered : TEXT.unanswered}${flagged ? `, ${TEXT.flagged}` : ""}`;
export const reviewUnanswered = (numbers) =>
  `${plural(numbers.length, "question is", "questions are")} not answered: ${numbers.join(", ")}.`;
export const reviewFlagged = (numbers) =>
  `${plural(numbers.length, "question is", "questions are")} flagged for review: ${numbers.join(", ")}.`;
export const scoreText = (score) => `${Number(score).toFixed(score % 1 === 0 ? 0 : 2)}%`;
export const pointsOfText = (earned, possible) => `${earned} of ${pointsText(possible)}`;
export const revealAfter = (when) => `Each question's result is shown after ${when}.`;
export const movedAnnouncement = (text, position, total) => `${text}: position ${position} of ${total}.`;
export const moveUpLabel = (text) => `Move up: ${text}`;
export const moveDownLabel = (text) => `Move down: ${text}`;
export const blankLabel = (n, total) => `Blank ${n} of ${total}`;
export const wordCount = (words, max) => (max ? `${words} of at most ${max} words` : plural(words, "word", "words"));
export const attemptLine = (n, status, score) =>
  `Attempt ${n}: ${status === "open" ? "in progress" : status === "needs_review" ? "waiting for review" : status}${
    score === null || score === undefined ? "" : `, ${scoreText(score)}`
  }`;
export const pointsEarnedText = (earned, possible) =>
  earned === null ? TEXT.awaitingReview : `${earned} of ${pointsText(possible)}`;

/** A timestamp in the learner's own locale and time zone, date and time. */
export const when = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A countdown: h:mm:ss or m:ss. */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
