// The report page: sign-in, the quiz list, and one quiz's report (report.js). The URL's fragment
// (#quiz=quiz_…) names the quiz shown, so back, forward and reload keep the place; the credential
// never goes into the URL, but for a report session's link (#session=qz_vt_…, §17), which is read
// once, removed from the address bar and kept in sessionStorage like a typed credential.

import { fill, h } from "../shared/dom.js";
import { ApiError, credential, download, getJson, page } from "./api.js";
import { loadReport, renderReport } from "./report.js";

const QUIZ_PAGE_SIZE = 20;
const QUIZ_ID = /^quiz_[0-9a-hjkmnp-tv-z]{26}$/;

const byId = (id) => document.getElementById(id);
const ui = {
  signin: byId("signin"),
  form: byId("signin-form"),
  input: byId("credential"),
  signinError: byId("signin-error"),
  account: byId("account"),
  who: byId("who"),
  signout: byId("signout"),
  quizzes: byId("quizzes"),
  quizzesHeading: byId("quizzes-heading"),
  list: byId("quiz-list"),
  more: byId("more-quizzes"),
  quizzesError: byId("quizzes-error"),
  report: byId("report"),
  status: byId("status"),
};

let nextQuizzes = null;
/** Which report load is current: a later choice makes an earlier, slower answer stale. */
let reportGeneration = 0;

const announce = (text) => {
  ui.status.textContent = text;
};

const describe = (error) =>
  error instanceof ApiError
    ? `${error.message}${error.code ? ` (${error.code}, ${error.status})` : ` (${error.status})`}`
    : String(error);

/** A refused credential (401) ends the session: back to sign-in, saying why. */
function handle(error, where) {
  if (error instanceof ApiError && error.status === 401) {
    signOut(`Signed out: the API refused the credential (${error.message}).`);
    return;
  }
  where.textContent = describe(error);
}

function showSignIn(message = "") {
  document.body.classList.remove("signed-in");
  ui.signin.hidden = false;
  ui.account.hidden = true;
  ui.quizzes.hidden = true;
  ui.report.hidden = true;
  fill(ui.report);
  fill(ui.list);
  ui.signinError.textContent = message;
}

function signOut(message = "") {
  credential.clear();
  ui.input.value = "";
  if (window.location.hash) window.history.replaceState(null, "", window.location.pathname);
  showSignIn(message);
  ui.input.focus();
}

async function startSession(verified, { focus }) {
  document.body.classList.add("signed-in");
  ui.signin.hidden = true;
  ui.account.hidden = false;
  const scopes = verified.credential.scopes.join(", ");
  fill(ui.who, "Signed in with ", h("code", {}, verified.credential.id), ` (${scopes})`);
  ui.quizzes.hidden = false;
  nextQuizzes = `/v1/quizzes?limit=${QUIZ_PAGE_SIZE}`;
  fill(ui.list);
  await loadMoreQuizzes();
  if (focus) ui.quizzesHeading.focus();
  await showRoute({ focus: false });
}

async function loadMoreQuizzes() {
  if (!nextQuizzes) return;
  ui.more.disabled = true;
  ui.quizzesError.textContent = "";
  try {
    const { items, next } = await page(nextQuizzes, "quizzes");
    for (const quiz of items) {
      ui.list.append(
        h(
          "li",
          {},
          h("a", { href: `#quiz=${quiz.id}`, "data-quiz-id": quiz.id }, quiz.title),
          h("span", { class: "count" }, `${quiz.questions} question${quiz.questions === 1 ? "" : "s"}`),
        ),
      );
    }
    nextQuizzes = next;
    ui.more.hidden = next === null;
    if (ui.list.children.length === 0) ui.list.append(h("li", { class: "empty" }, "No quizzes yet."));
    markCurrent();
  } catch (error) {
    handle(error, ui.quizzesError);
  } finally {
    ui.more.disabled = false;
  }
}

function routeQuizId() {
  const match = /^#quiz=(.+)$/.exec(window.location.hash);
  const id = match ? decodeURIComponent(match[1]) : null;
  return id && QUIZ_ID.test(id) ? id : null;
}

function markCurrent() {
  const current = routeQuizId();
  for (const link of ui.list.querySelectorAll("a[data-quiz-id]")) {
    if (link.dataset.quizId === current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function showRoute({ focus }) {
  markCurrent();
  const quizId = routeQuizId();
  if (!quizId || !credential.get()) {
    ui.report.hidden = true;
    fill(ui.report);
    return;
  }
  reportGeneration += 1;
  const generation = reportGeneration;
  ui.report.hidden = false;
  ui.report.setAttribute("aria-busy", "true");
  fill(ui.report, h("p", { class: "loading" }, "Loading the report…"));
  announce("Loading the report…");
  try {
    const data = await loadReport(quizId);
    if (generation !== reportGeneration) return;
    renderReport(ui.report, data, { announce, onDownload: saveExport });
    announce(`Report of ${data.quiz.title}.`);
    if (focus) byId("report-title")?.focus();
  } catch (error) {
    if (generation !== reportGeneration) return;
    const message = h("p", { class: "error", role: "alert" });
    fill(ui.report, message);
    handle(error, message);
  } finally {
    if (generation === reportGeneration) ui.report.removeAttribute("aria-busy");
  }
}

async function saveExport(path, fallbackName, button, status) {
  button.disabled = true;
  status.textContent = `Preparing ${fallbackName}…`;
  try {
    const { name, bytes } = await download(path, fallbackName);
    status.textContent = `Saved ${name} (${bytes} bytes).`;
  } catch (error) {
    status.textContent = "";
    if (error instanceof ApiError && error.status === 401) handle(error, status);
    else status.textContent = `Could not download ${fallbackName}: ${describe(error)}`;
  } finally {
    button.disabled = false;
  }
}

ui.form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = ui.input.value.trim();
  if (!token) {
    ui.signinError.textContent = "Enter an API key or an access token.";
    return;
  }
  ui.signinError.textContent = "";
  const button = ui.form.querySelector("button");
  button.disabled = true;
  try {
    const verified = await getJson("/v1/auth/verify", { token });
    credential.set(token);
    ui.input.value = "";
    await startSession(verified, { focus: true });
  } catch (error) {
    ui.signinError.textContent =
      error instanceof ApiError && error.status === 401 ? `The API refused this credential: ${error.message}` : describe(error);
  } finally {
    button.disabled = false;
  }
});

ui.signout.addEventListener("click", () => signOut("Signed out."));
ui.more.addEventListener("click", async () => {
  const count = ui.list.children.length;
  await loadMoreQuizzes();
  // Keyboard users land on the first quiz the button brought in.
  ui.list.children[count]?.querySelector("a")?.focus();
});
window.addEventListener("hashchange", () => void showRoute({ focus: true }));

const SESSION_FRAGMENT = /^#session=(qz_vt_[0-9A-Za-z]{43})$/;

/**
 * A report_url's fragment: the token is taken into sessionStorage and the fragment replaced at
 * once (history.replaceState), so it stays out of the history, bookmarks and any Referer.
 */
function takeSessionFromFragment() {
  const match = SESSION_FRAGMENT.exec(window.location.hash);
  if (!match) return;
  credential.set(match[1]);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}

async function resume() {
  if (!credential.get()) {
    showSignIn();
    return;
  }
  try {
    await startSession(await getJson("/v1/auth/verify"), { focus: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) signOut("Your session's credential was refused; sign in again.");
    else {
      showSignIn();
      ui.signinError.textContent = describe(error);
    }
  }
}

takeSessionFromFragment();
void resume();
