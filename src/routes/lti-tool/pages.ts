import type { PickerRequest, QuizChoice } from "../../lti/tool/deep-linking";

/**
 * The tool's pages, rendered on the server (no script but /lti/auto-submit.js, no inline script
 * or style: the CSP forbids both). Every text from outside — a quiz title, a search, a check's
 * detail — goes through `escapeHtml`, so nothing a platform or an author sent becomes markup.
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

interface PageParts {
  title: string;
  body: string;
  /** Script files of this origin the page loads. */
  scripts?: string[];
}

function page({ title, body, scripts = [] }: PageParts): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="referrer" content="no-referrer">
    <title>${escapeHtml(title)} · Quiz</title>
    <link rel="stylesheet" href="/lti/tool.css">
${scripts.map((src) => `    <script src="${escapeHtml(src)}" defer></script>\n`).join("")}  </head>
  <body>
    <main class="card">
${body}
    </main>
  </body>
</html>
`;
}

/** A refusal: what failed (the check's name, for the school's administrator) and what to do. */
export function refusalPage(status: number, check: string, detail: string): string {
  const heading =
    status === 403 ? "Not available to you" : status >= 401 ? "This launch was refused" : "This request cannot be used";
  return page({
    title: heading,
    body: `      <h1>${escapeHtml(heading)}</h1>
      <p>${escapeHtml(detail)}</p>
      <p class="muted">Check: <code id="check">${escapeHtml(check)}</code> (HTTP ${status}). Open the activity again from the course; if this persists, give this check's name to the school's LMS administrator.</p>`,
  });
}

export function notLinkedPage(instructor: boolean): string {
  return page({
    title: "Not linked yet",
    body: `      <h1>This activity is not linked to a quiz yet</h1>
      <p>${
        instructor
          ? "Edit the activity in the LMS and choose a quiz with the quiz tool's picker (deep linking), or ask the school's administrator to link it."
          : "Your teacher has not chosen a quiz for this activity yet. Try again later."
      }</p>`,
  });
}

/**
 * Shown in the LMS's frame when the browser sent no state cookie (third-party cookies blocked):
 * the launch goes on in a new window, by a form that posts the single-use ticket (never in a URL).
 */
export function continuePage(ticket: string): string {
  return page({
    title: "Open the quiz",
    body: `      <h1>Open the quiz in a new window</h1>
      <p>Your browser blocks the cookies the quiz needs inside the course page, so the quiz opens in a window of its own.</p>
      <form method="post" action="/lti/launch/continue" target="_blank">
        <input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
        <button type="submit" id="continue">Open the quiz</button>
      </form>
      <p class="muted">The button works once, within 2 minutes.</p>`,
  });
}

export function pickerPage(
  ticket: string,
  request: PickerRequest,
  list: { quizzes: QuizChoice[]; next: string | undefined },
  search: string,
  first: boolean,
): string {
  const input = request.acceptMultiple ? "checkbox" : "radio";
  const rows = list.quizzes
    .map(
      (quiz) => `          <li>
            <label><input type="${input}" name="quiz_id" value="${escapeHtml(quiz.id)}"> ${escapeHtml(quiz.title)}</label>
            <span class="muted">${quiz.questionCount} question${quiz.questionCount === 1 ? "" : "s"}</span>
          </li>`,
    )
    .join("\n");
  const query = (after: string | undefined) =>
    `/lti/deep-linking?${new URLSearchParams({ ticket, ...(search ? { q: search } : {}), ...(after ? { after } : {}) })}`;
  return page({
    title: "Choose a quiz",
    body: `      <h1>Choose ${request.acceptMultiple ? "quizzes" : "a quiz"} to add</h1>
      <form method="get" action="/lti/deep-linking" role="search" class="search">
        <input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
        <label for="q">Search by title</label>
        <input id="q" name="q" type="search" value="${escapeHtml(search)}" maxlength="200">
        <button type="submit">Search</button>
      </form>
      <form method="post" action="/lti/deep-linking" id="pick">
        <input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
        <fieldset>
          <legend>${list.quizzes.length === 0 ? "No quiz matches." : request.acceptMultiple ? "Quizzes (choose one or several)" : "Quizzes (choose one)"}</legend>
        <ul class="quizzes">
${rows}
        </ul>
        </fieldset>
        <nav class="pages" aria-label="Pages">${first ? "" : `<a href="${escapeHtml(query(undefined))}">First page</a>`}${
          list.next ? ` <a href="${escapeHtml(query(list.next))}" id="next">Next page</a>` : ""
        }</nav>
        <div class="actions">
          <button type="submit" name="action" value="add" id="add">Add to the course</button>
          <button type="submit" name="action" value="cancel" id="cancel" formnovalidate>Cancel</button>
        </div>
      </form>`,
  });
}

/** The deep-linking answer: a form posting the signed response to the platform, submitted on load by /lti/auto-submit.js. */
export function answerPage(returnUrl: string, jwt: string, count: number): string {
  return page({
    title: "Returning to the course",
    scripts: ["/lti/auto-submit.js"],
    body: `      <h1>${count === 0 ? "Nothing added" : `Adding ${count} quiz${count === 1 ? "" : "zes"}`}</h1>
      <form method="post" action="${escapeHtml(returnUrl)}" data-auto-submit>
        <input type="hidden" name="JWT" value="${escapeHtml(jwt)}">
        <p>Returning to the course…</p>
        <button type="submit">Return to the course</button>
      </form>`,
  });
}
