// Which part of the page shows: one screen at a time, its heading focused (so a screen reader
// starts there and the keyboard continues from there), the title bar above them all.
import { byId } from "../shared/dom.js";

const SCREENS = ["loading", "problem", "start", "attempt", "review", "grading", "result"];
const HEADINGS = {
  loading: "loading-heading",
  problem: "problem-heading",
  start: "quiz-title",
  attempt: "question-heading",
  review: "review-heading",
  grading: "grading-heading",
  result: "result-heading",
};

/** Shows one screen and focuses its heading (focus: false leaves focus where it is). */
export function show(name, { focus = true } = {}) {
  for (const screen of SCREENS) byId(screen).hidden = screen !== name;
  document.body.dataset.screen = name;
  if (focus) {
    const heading = byId(HEADINGS[name]);
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: "nearest" });
  }
}

export function announce(text) {
  const region = byId("announcer");
  // A repeat of the same words is still announced: clear first, write a moment later.
  region.textContent = "";
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}
