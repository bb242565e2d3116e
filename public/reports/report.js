// One quiz's report: summary figures, the score histogram, the items (items.js), option shares
// per choice question (options.js), and the export downloads. Every chart has its numbers in a
// table beside it.

import { formatted, plain } from "../shared/content.js";
import { fill, h, scrollable, uid } from "../shared/dom.js";
import { all, getJson } from "./api.js";
import { histogram } from "./charts.js";
import * as format from "./format.js";
import { itemsSection } from "./items.js";
import { optionsSection } from "./options.js";

/** Fetches what the report shows; the questions (prompts, option texts, keys) are optional. */
export async function loadReport(quizId) {
  const id = encodeURIComponent(quizId);
  const [quiz, analytics, items, questions] = await Promise.all([
    getJson(`/v1/quizzes/${id}`),
    getJson(`/v1/analytics/quiz/${id}`),
    getJson(`/v1/analytics/quiz/${id}/items`),
    // Without quizzes:read the report still shows every figure, with question ids for names.
    all(`/v1/quizzes/${id}/questions?limit=100`, "questions").catch(() => null),
  ]);
  return { quiz, analytics, items, questions };
}

const keyOf = (question) => {
  if (!question) return null;
  if (typeof question.correct_option_id === "string") return new Set([question.correct_option_id]);
  if (Array.isArray(question.correct_option_ids)) return new Set(question.correct_option_ids);
  return null;
};

/** The item analysis joined with the questions: one row per item, in the quiz's order. */
function itemRows(items, questions) {
  const byId = new Map((questions ?? []).map((q) => [q.id, q]));
  return items.items.map((item, index) => {
    const question = byId.get(item.question_id) ?? null;
    return {
      ...item,
      position: index + 1,
      label: `Q${index + 1}`,
      question,
      // Plain text for sorting and labels; shown() builds the formatted text afresh for each place it appears.
      prompt: question ? plain(question.prompt, question.content_format) : questions ? "(deleted question)" : item.question_id,
      shown: () =>
        question ? formatted(question.prompt, question.content_format) : questions ? "(deleted question)" : item.question_id,
      key: keyOf(question),
    };
  });
}

function figure(label, value, raw, name) {
  return h("div", {}, h("dt", {}, label), h("dd", { "data-figure": name, "data-value": format.raw(raw) }, value));
}

function summary(analytics, items) {
  return h(
    "section",
    { class: "card", "aria-labelledby": "summary-heading" },
    h("h3", { id: "summary-heading" }, "Summary"),
    h(
      "dl",
      { class: "summary" },
      figure("Attempts", format.count(analytics.total_attempts), analytics.total_attempts, "attempts"),
      figure("Mean score", format.score(analytics.avg_score), analytics.avg_score, "mean"),
      figure("Standard deviation", format.score(analytics.stddev_score), analytics.stddev_score, "stddev"),
      figure("Reliability (α)", format.ratio(items.reliability), items.reliability, "reliability"),
      figure("Students", format.count(analytics.unique_users), analytics.unique_users, "users"),
      figure("Lowest", format.score(analytics.min_score), analytics.min_score, "min"),
      figure("Highest", format.score(analytics.max_score), analytics.max_score, "max"),
    ),
    h(
      "p",
      { class: "note" },
      "Scores are percentages of the points possible, over graded attempts. Reliability is Cronbach's alpha; it is left out (—) when fewer than two items were asked, the scores do not vary, or attempts were not all asked the same questions.",
    ),
  );
}

function scores(analytics) {
  const caption = uid("histogram");
  const buckets = analytics.score_distribution;
  return h(
    "section",
    { class: "card", "aria-labelledby": "scores-heading" },
    h("h3", { id: "scores-heading" }, "Score distribution"),
    h(
      "div",
      { class: "pair" },
      h(
        "figure",
        {},
        histogram(buckets, caption),
        h(
          "figcaption",
          { id: caption },
          "Histogram: graded attempts per score range of 10 points; the numbers are in the table.",
        ),
      ),
      scrollable(
        "Score distribution numbers",
        h(
          "table",
          { id: "histogram-table" },
          h("caption", {}, "Attempts per score range"),
          h(
            "thead",
            {},
            h("tr", {}, h("th", { scope: "col" }, "Score range"), h("th", { scope: "col", class: "num" }, "Attempts")),
          ),
          h(
            "tbody",
            {},
            buckets.map((bucket, i) =>
              h(
                "tr",
                { "data-from": bucket.from, "data-to": bucket.to },
                h(
                  "th",
                  { scope: "row" },
                  i === buckets.length - 1 ? `${bucket.from}–${bucket.to}` : `${bucket.from} to under ${bucket.to}`,
                ),
                h("td", { class: "num", "data-value": bucket.count }, String(bucket.count)),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

const EXPORTS = [
  { shape: "submissions", format: "csv", label: "Submissions (CSV)" },
  { shape: "submissions", format: "ndjson", label: "Submissions (NDJSON)" },
  { shape: "answers", format: "csv", label: "Answers (CSV)" },
  { shape: "answers", format: "ndjson", label: "Answers (NDJSON)" },
];

function downloads(quizId, onDownload) {
  const status = h("p", { class: "download-status", role: "status", "aria-live": "polite" });
  return h(
    "section",
    { class: "card", "aria-labelledby": "downloads-heading" },
    h("h3", { id: "downloads-heading" }, "Download results"),
    h(
      "p",
      { class: "note" },
      "One row per graded attempt (submissions) or per question asked in each (answers), as a spreadsheet (CSV) or JSON lines (NDJSON).",
    ),
    h(
      "div",
      { class: "downloads" },
      EXPORTS.map((e) =>
        h(
          "button",
          {
            type: "button",
            class: "download",
            "data-shape": e.shape,
            "data-format": e.format,
            onclick: (event) =>
              onDownload(
                `/v1/quizzes/${encodeURIComponent(quizId)}/results/export?format=${e.format}&shape=${e.shape}`,
                `${quizId}-${e.shape}.${e.format === "csv" ? "csv" : "ndjson"}`,
                event.currentTarget,
                status,
              ),
          },
          e.label,
        ),
      ),
    ),
    status,
  );
}

/** Draws the report of `data` (from loadReport) into `container`. */
export function renderReport(container, data, { announce, onDownload }) {
  const { quiz, analytics, items, questions } = data;
  const rows = itemRows(items, questions);
  fill(
    container,
    h("h2", { id: "report-title", tabindex: -1 }, quiz.title),
    h("p", { class: "meta" }, `${quiz.questions} question${quiz.questions === 1 ? "" : "s"} · `, h("code", {}, quiz.id)),
    summary(analytics, items),
    scores(analytics),
    itemsSection(rows, announce),
    optionsSection(rows, questions),
    downloads(quiz.id, onDownload),
  );
}
