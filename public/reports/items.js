// The items of a report: the item table, sortable by every column (a button in each header,
// aria-sort on the sorted one), and the difficulty × discrimination scatter with the flag
// thresholds drawn. The scatter's numbers are the table's.

import { fill, h, scrollable, uid } from "../shared/dom.js";
import { scatter, THRESHOLDS } from "./charts.js";
import * as format from "./format.js";

export const flagList = (flags) =>
  flags && flags.length > 0
    ? h(
        "ul",
        { class: "flags" },
        flags.map((f) => h("li", { class: "flag", "data-flag": f }, format.flagLabel(f))),
      )
    : "";

const compareNullsLast = (a, b, direction) => {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  return (typeof a === "string" ? a.localeCompare(b) : a - b) * direction;
};

/** The item table, sortable by each column: a button in each header, aria-sort on the sorted one. */
function itemTable(rows, announce) {
  const hasFlags = rows.some((row) => Array.isArray(row.flags));
  const columns = [
    { key: "position", label: "#", name: "position", value: (r) => r.position, cell: (r) => r.label, numeric: true },
    // Beside the row's heading, so that on a phone the prompt stays in view and the figures scroll in after it.
    {
      key: "question",
      label: "Question",
      value: (r) => r.prompt,
      cell: (r) => h("span", { class: "prompt" }, r.shown ? r.shown() : r.prompt),
    },
    { key: "n", label: "n", value: (r) => r.n, cell: (r) => format.count(r.n), raw: (r) => r.n, numeric: true },
    {
      key: "difficulty",
      label: "Difficulty",
      value: (r) => r.difficulty,
      cell: (r) => format.ratio(r.difficulty),
      raw: (r) => r.difficulty,
      numeric: true,
    },
    {
      key: "discrimination",
      // A soft hyphen: the narrowest screens break the heading rather than hide the column.
      label: "Discrimi\u00adnation",
      name: "discrimination",
      value: (r) => r.discrimination,
      cell: (r) => format.ratio(r.discrimination),
      raw: (r) => r.discrimination,
      numeric: true,
    },
    ...(hasFlags
      ? [
          {
            key: "flags",
            label: "Flags",
            // Most flags first when descending; then by their names.
            value: (r) => `${String(r.flags?.length ?? 0).padStart(2, "0")} ${(r.flags ?? []).join(" ")}`,
            cell: (r) => flagList(r.flags),
            raw: (r) => (r.flags ?? []).join(" "),
          },
        ]
      : []),
  ];
  let sort = { key: "position", direction: 1 };
  const body = h("tbody");
  const headers = new Map();

  const render = () => {
    const column = columns.find((c) => c.key === sort.key);
    const sorted = [...rows].sort(
      (a, b) => compareNullsLast(column.value(a), column.value(b), sort.direction) || a.position - b.position,
    );
    fill(
      body,
      sorted.map((row) =>
        h(
          "tr",
          { "data-question-id": row.question_id },
          columns.map((c, i) =>
            h(
              i === 0 ? "th" : "td",
              {
                scope: i === 0 ? "row" : undefined,
                class: c.numeric ? "num" : undefined,
                "data-column": c.key,
                "data-value": c.raw ? format.raw(c.raw(row)) : undefined,
              },
              c.cell(row),
            ),
          ),
        ),
      ),
    );
    for (const [key, th] of headers) {
      if (key === sort.key) th.setAttribute("aria-sort", sort.direction === 1 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  };

  const head = h(
    "tr",
    {},
    columns.map((c) => {
      const th = h(
        "th",
        { scope: "col", class: c.numeric ? "num" : undefined },
        h(
          "button",
          {
            type: "button",
            class: "sort",
            "data-sort": c.key,
            onclick: () => {
              sort = { key: c.key, direction: sort.key === c.key ? -sort.direction : 1 };
              render();
              announce(`Items sorted by ${c.name ?? c.key}, ${sort.direction === 1 ? "ascending" : "descending"}.`);
            },
          },
          c.label,
          h("span", { class: "sort-icon", "aria-hidden": "true" }),
        ),
      );
      headers.set(c.key, th);
      return th;
    }),
  );
  render();
  return [
    h(
      "p",
      { class: "note", id: "item-table-help" },
      "Choose a column heading to sort the items by it; choose it again to reverse.",
    ),
    scrollable(
      "Item table",
      h(
        "table",
        { id: "item-table", "aria-describedby": "item-table-help" },
        h("caption", {}, "Items"),
        h("thead", {}, head),
        body,
      ),
    ),
  ];
}

export function itemsSection(rows, announce) {
  const caption = uid("scatter");
  const plotted = rows.filter((r) => r.difficulty !== null && r.discrimination !== null);
  const missing = rows.filter((r) => !plotted.includes(r));
  const flagged = (r) =>
    r.difficulty < THRESHOLDS.tooHard ||
    r.difficulty > THRESHOLDS.tooEasy ||
    r.discrimination < THRESHOLDS.low ||
    (Array.isArray(r.flags) && r.flags.length > 0);
  return h(
    "section",
    { class: "card", "aria-labelledby": "items-heading" },
    h("h3", { id: "items-heading" }, "Items"),
    h(
      "p",
      { class: "note" },
      "Difficulty: the share of the item's points earned (0–1; high is easy). Discrimination: how well the item separates strong from weak attempts (its correlation with the rest of the score; below 0.2 is weak, below 0 suspicious).",
    ),
    itemTable(rows, announce),
    h(
      "figure",
      { class: "scatter" },
      scatter(
        plotted.map((r) => ({ label: r.label, difficulty: r.difficulty, discrimination: r.discrimination, flagged: flagged(r) })),
        caption,
      ),
      h(
        "figcaption",
        { id: caption },
        `Difficulty against discrimination, one point per item (${plotted.length} of ${rows.length}; their numbers are in the item table). Dashed lines: the flag thresholds, difficulty 0.2 and 0.95, discrimination 0 and 0.2; an item in a shaded zone is flagged.`,
        missing.length > 0 ? ` Not drawn (no figure yet): ${missing.map((r) => r.label).join(", ")}.` : "",
      ),
    ),
  );
}
