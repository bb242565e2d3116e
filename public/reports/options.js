// Per choice question: a bar per option of its share of the item's attempts, labelled by the
// option's text, the key marked when the credential may see it, and below it the table of count,
// share, mean total and point-biserial, each row headed by the option's id and text. Chart above
// table, so that the table has the card's whole width and its figures fit beside the texts.

import { formatted, plain } from "../shared/content.js";
import { h, scrollable, uid } from "../shared/dom.js";
import { optionBars } from "./charts.js";
import * as format from "./format.js";
import { flagList } from "./items.js";

function optionQuestion(row, keysVisible) {
  const caption = uid("options");
  const contentFormat = row.question?.content_format;
  const texts = new Map((row.question?.options ?? []).map((o) => [o.id, o.text]));
  const options = row.options.map((o) => ({
    ...o,
    // share = count ÷ item n (§14); computed here when the API does not send it.
    share: o.share !== undefined ? o.share : row.n > 0 ? o.count / row.n : null,
    isKey: row.key?.has(o.option_id) ?? false,
    // Plain text for the chart's labels; the table shows the formatted text.
    text: plain(texts.get(o.option_id) ?? "", contentFormat),
    shown: () => formatted(texts.get(o.option_id) ?? "", contentFormat),
  }));
  const hasMeanTotal = row.options.some((o) => o.mean_total !== undefined);
  const hasPointBiserial = row.options.some((o) => o.point_biserial !== undefined);
  return h(
    "article",
    { class: "question", "data-question-id": row.question_id },
    h(
      "h4",
      {},
      h("span", { class: "label" }, `${row.label}. `),
      h("span", { class: "prompt" }, row.shown ? row.shown() : row.prompt),
    ),
    flagList(row.flags),
    h(
      "div",
      { class: "stack" },
      h(
        "figure",
        {},
        optionBars(
          options.map((o) => ({ id: o.option_id, text: o.text, share: o.share, isKey: o.isKey })),
          caption,
        ),
        h(
          "figcaption",
          { id: caption },
          `Share of the ${row.n} attempts asked ${row.label} that chose each option`,
          keysVisible ? "; ✓ marks the key." : ".",
          " The numbers are in the table.",
        ),
      ),
      scrollable(
        `${row.label} options`,
        h(
          "table",
          { class: "options" },
          h("caption", {}, `${row.label} options`),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Option"),
              h("th", { scope: "col", class: "num" }, "Chosen"),
              h("th", { scope: "col", class: "num" }, "Share"),
              hasMeanTotal ? h("th", { scope: "col", class: "num" }, "Mean total") : "",
              // A soft hyphen: the narrowest screens break the heading rather than widen the column.
              hasPointBiserial ? h("th", { scope: "col", class: "num" }, "Point-\u00adbiserial") : "",
            ),
          ),
          h(
            "tbody",
            {},
            options.map((o) =>
              h(
                "tr",
                { "data-option-id": o.option_id, class: o.isKey ? "key" : undefined },
                h(
                  "th",
                  { scope: "row", class: "option" },
                  h("span", { class: "option-id" }, o.option_id),
                  o.text ? h("span", { class: "text" }, " ", o.shown()) : "",
                  o.isKey ? h("span", { class: "key-mark" }, " ✓ key") : "",
                ),
                h("td", { class: "num", "data-column": "count", "data-value": o.count }, format.count(o.count)),
                h("td", { class: "num", "data-column": "share", "data-value": format.raw(o.share) }, format.share(o.share)),
                hasMeanTotal
                  ? h(
                      "td",
                      { class: "num", "data-column": "mean_total", "data-value": format.raw(o.mean_total) },
                      format.points(o.mean_total),
                    )
                  : "",
                hasPointBiserial
                  ? h(
                      "td",
                      { class: "num", "data-column": "point_biserial", "data-value": format.raw(o.point_biserial) },
                      format.ratio(o.point_biserial),
                    )
                  : "",
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

export function optionsSection(rows, questions) {
  const choice = rows.filter((r) => Array.isArray(r.options));
  if (choice.length === 0) return "";
  const keysVisible = rows.some((r) => r.key !== null);
  return h(
    "section",
    { class: "card", "aria-labelledby": "options-heading" },
    h("h3", { id: "options-heading" }, "Options chosen"),
    h(
      "p",
      { class: "note" },
      keysVisible
        ? "Each choice question's options, with the share of attempts that chose each; the key is marked ✓ key."
        : questions
          ? "Each choice question's options, with the share of attempts that chose each. The key is shown to credentials with the quizzes:write scope."
          : "Each choice question's options, with the share of attempts that chose each. Prompts, option texts and keys need the quizzes:read scope (keys: quizzes:write).",
    ),
    choice.map((row) => optionQuestion(row, keysVisible)),
  );
}
