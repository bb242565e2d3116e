// One entry per question type (the nine of src/domain/question-types/): how its answer is
// given with the keyboard alone, and how a response and a key are written out in the result.
// Nothing needs dragging (WCAG 2.2, 2.5.7): an ordering moves items with buttons, a matching
// picks each prompt's choice from a select. Every text from the API goes through renderText, in the
// question's content_format; a select's options and the aria-labels can hold text only, and take
// plainText.
import { h, uid } from "../shared/dom.js";
import { blankLabel, moveDownLabel, movedAnnouncement, moveUpLabel, TEXT, wordCount } from "./strings.js";
import { blockFor, plainText, renderText } from "./text.js";

/** `{{blank_id}}` in a fill-in-the-blanks text (the service's own rule). */
const BLANK_MARKER = /\{\{([^{}]*)\}\}/g;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A question's list (options, items, choices) in the order this submission presents it. */
export function presented(list, order) {
  if (!Array.isArray(list)) return [];
  if (!Array.isArray(order)) return list;
  const rank = new Map(order.map((id, i) => [id, i]));
  return [...list].sort((a, b) => (rank.get(a.id) ?? list.length) - (rank.get(b.id) ?? list.length));
}

const text = (tag, value, attributes, format) => renderText(h(tag, attributes), value, format);

function choiceList({ question, response, onChange, promptId, order }, multiple) {
  const name = uid("choice");
  const chosen = new Set(multiple ? (Array.isArray(response) ? response : []) : [response]);
  const options = presented(question.options, order);
  const inputs = [];
  const group = h("div", {
    role: multiple ? "group" : "radiogroup",
    "aria-labelledby": promptId,
    class: "choices",
  });
  if (multiple) {
    const hint = h("p", { id: uid("hint"), class: "muted" }, TEXT.multipleHelp);
    group.setAttribute("aria-describedby", hint.id);
    group.append(hint);
  }
  for (const option of options) {
    const id = uid("option");
    const input = h("input", {
      type: multiple ? "checkbox" : "radio",
      id,
      name,
      value: option.id,
      checked: chosen.has(option.id),
    });
    inputs.push(input);
    input.addEventListener("change", () => {
      if (!multiple) onChange(option.id);
      else {
        const ids = inputs.filter((i) => i.checked).map((i) => i.value);
        onChange(ids.length === 0 ? null : ids);
      }
    });
    group.append(h("div", { class: "choice" }, input, text("label", option.text, { for: id }, question.content_format)));
  }
  return group;
}

function trueFalse({ response, onChange, promptId }) {
  const name = uid("tf");
  const group = h("div", { role: "radiogroup", "aria-labelledby": promptId, class: "choices" });
  for (const value of [true, false]) {
    const id = uid("option");
    const input = h("input", { type: "radio", id, name, value: String(value), checked: response === value });
    input.addEventListener("change", () => onChange(value));
    group.append(h("div", { class: "choice" }, input, h("label", { for: id }, value ? TEXT.true : TEXT.false)));
  }
  return group;
}

function textAnswer({ response, onChange, promptId }, { label, maxLength }) {
  const id = uid("answer");
  const input = h("input", {
    type: "text",
    id,
    maxlength: maxLength,
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": promptId,
  });
  input.value = typeof response === "string" ? response : "";
  input.addEventListener("input", () => onChange(input.value === "" ? null : input.value));
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function numericAnswer({ response, onChange, promptId }) {
  const id = uid("answer");
  const hint = h("p", { id: uid("hint"), class: "muted" }, TEXT.numericHelp);
  const error = h("p", { id: uid("error"), class: "error" });
  const input = h("input", {
    type: "text",
    inputmode: "decimal",
    id,
    autocomplete: "off",
    "aria-describedby": `${promptId} ${hint.id} ${error.id}`,
  });
  input.value = typeof response === "number" ? String(response) : "";
  input.addEventListener("input", () => {
    const raw = input.value.trim();
    // A decimal comma is read as a point when the number has no point of its own.
    const value = raw.includes(".") ? raw : raw.replace(",", ".");
    if (raw === "") {
      input.removeAttribute("aria-invalid");
      error.textContent = "";
      onChange(null);
    } else if (NUMBER.test(value) && Number.isFinite(Number(value))) {
      input.removeAttribute("aria-invalid");
      error.textContent = "";
      onChange(Number(value));
    } else {
      input.setAttribute("aria-invalid", "true");
      error.textContent = TEXT.notANumber;
    }
  });
  return h("div", { class: "field" }, h("label", { for: id }, TEXT.numericLabel), input, hint, error);
}

function essayAnswer({ question, response, onChange, promptId }) {
  const id = uid("answer");
  const count = h("p", { id: uid("count"), class: "muted" });
  const area = h("textarea", { id, rows: 8, maxlength: 20000, "aria-describedby": `${promptId} ${count.id}` });
  area.value = typeof response === "string" ? response : "";
  const words = () => area.value.split(/\s+/u).filter((w) => w !== "").length;
  const recount = () => {
    count.textContent = wordCount(words(), question.max_words ?? null);
  };
  recount();
  area.addEventListener("input", () => {
    recount();
    onChange(area.value === "" ? null : area.value);
  });
  return h("div", { class: "field" }, h("label", { for: id }, TEXT.essayLabel), area, count);
}

function ordering({ question, response, onChange, promptId, order, announce }) {
  const items = presented(question.items, order);
  const format = question.content_format;
  const byId = new Map(items.map((item) => [item.id, item]));
  const answered = Array.isArray(response) && response.length === items.length && response.every((id) => byId.has(id));
  let current = answered ? response.map((id) => byId.get(id)) : items;
  const help = h("p", { id: uid("hint"), class: "muted" }, TEXT.orderingHelp);
  const list = h("ol", { class: "ordering", "aria-labelledby": promptId, "aria-describedby": help.id });
  const keep = h("button", { type: "button", class: "secondary", hidden: answered }, TEXT.keepOrder);
  keep.addEventListener("click", () => {
    keep.hidden = true;
    onChange(current.map((item) => item.id));
  });

  const draw = (focus) => {
    list.replaceChildren();
    current.forEach((item, i) => {
      const up = h(
        "button",
        { type: "button", class: "move", "aria-label": moveUpLabel(plainText(item.text, format)), disabled: i === 0 },
        "↑",
      );
      const down = h(
        "button",
        {
          type: "button",
          class: "move",
          "aria-label": moveDownLabel(plainText(item.text, format)),
          disabled: i === current.length - 1,
        },
        "↓",
      );
      up.addEventListener("click", () => move(i, -1));
      down.addEventListener("click", () => move(i, 1));
      list.append(
        h(
          "li",
          { class: "ordering-item", "data-item-id": item.id },
          h("span", { class: "position", "aria-hidden": "true" }, String(i + 1)),
          text("span", item.text, { class: "item-text" }, format),
          h("span", { class: "moves" }, up, down),
        ),
      );
      if (focus && focus.id === item.id) {
        // Focus stays on the moved item's button, or its other one at either end of the list.
        const target = focus.by < 0 ? (i === 0 ? down : up) : i === current.length - 1 ? up : down;
        target.focus();
      }
    });
  };
  const move = (index, by) => {
    const to = index + by;
    if (to < 0 || to >= current.length) return;
    const next = [...current];
    const [item] = next.splice(index, 1);
    next.splice(to, 0, item);
    current = next;
    keep.hidden = true;
    draw({ id: item.id, by });
    announce(movedAnnouncement(plainText(item.text, format), to + 1, current.length));
    onChange(current.map((entry) => entry.id));
  };
  draw(null);
  return h("div", { class: "field" }, help, list, keep);
}

function matching({ question, response, onChange, order }) {
  const chosen = response && typeof response === "object" && !Array.isArray(response) ? response : {};
  const choices = presented(question.choices, order);
  const selects = [];
  const rows = (question.prompts ?? []).map((prompt) => {
    const id = uid("match");
    const select = h(
      "select",
      { id, "data-prompt-id": prompt.id },
      h("option", { value: "" }, TEXT.matchingPlaceholder),
      choices.map((choice) =>
        // An option holds text only: an "html" choice shows its text content (an image as its alt).
        renderText(
          h("option", { value: choice.id, selected: chosen[prompt.id] === choice.id }),
          plainText(choice.text, question.content_format),
        ),
      ),
    );
    selects.push(select);
    select.addEventListener("change", () => {
      const answer = Object.fromEntries(selects.filter((s) => s.value !== "").map((s) => [s.dataset.promptId, s.value]));
      onChange(Object.keys(answer).length === 0 ? null : answer);
    });
    return h("div", { class: "match" }, text("label", prompt.text, { for: id }, question.content_format), select);
  });
  return h("div", { class: "matches" }, rows);
}

function fillInBlanks({ question, response, onChange, promptId }) {
  const given = response && typeof response === "object" && !Array.isArray(response) ? response : {};
  const source = question.text ?? "";
  let inputs = [];
  const changed = () => {
    const answer = Object.fromEntries(inputs.filter((x) => x.value !== "").map((x) => [x.dataset.blankId, x.value]));
    onChange(Object.keys(answer).length === 0 ? null : answer);
  };
  // Each run of text, plain or inside formatted text, with an input in place of each marker.
  const withBlanks = (parent, run) => {
    let at = 0;
    for (const marker of run.matchAll(BLANK_MARKER)) {
      parent.append(document.createTextNode(run.slice(at, marker.index)));
      const input = h("input", {
        type: "text",
        class: "blank",
        maxlength: 1000,
        autocomplete: "off",
        spellcheck: "false",
        "aria-describedby": promptId,
        "data-blank-id": marker[1],
      });
      input.value = typeof given[marker[1]] === "string" ? given[marker[1]] : "";
      input.addEventListener("input", changed);
      inputs.push(input);
      parent.append(input);
      at = marker.index + marker[0].length;
    }
    parent.append(document.createTextNode(run.slice(at)));
  };
  const paragraph = renderText(
    h(blockFor(question.content_format), { class: "blanks-text" }),
    source,
    question.content_format,
    withBlanks,
  );
  // Only the inputs on the page (html not in the stored form is shown as text, built afresh), numbered in reading order.
  inputs = inputs.filter((input) => paragraph.contains(input));
  for (const [i, input] of inputs.entries()) input.setAttribute("aria-label", blankLabel(i + 1, inputs.length));
  return h("div", { class: "field" }, paragraph);
}

const optionText = (question, id) => plainText(question.options?.find((o) => o.id === id)?.text ?? id, question.content_format);
const itemText = (list, id, format) => plainText(list?.find((o) => o.id === id)?.text ?? id, format);
const tf = (value) => (value === true ? TEXT.true : value === false ? TEXT.false : String(value));
const blanksOf = (question) => [...(question.text ?? "").matchAll(BLANK_MARKER)].map((m) => m[1]);

/**
 * Per type: `render(context)` answers the controls; `response(question, response)` and
 * `key(question, key)` answer the lines that write them out in the result (plain strings: an
 * "html" question's option, item, prompt and choice texts as their text content).
 */
export const QUESTION_TYPES = {
  single_choice: {
    render: (context) => choiceList(context, false),
    response: (q, r) => [optionText(q, r)],
    key: (q, k) => [optionText(q, k)],
  },
  multiple_choice: {
    render: (context) => choiceList(context, true),
    response: (q, r) => (Array.isArray(r) ? r.map((id) => optionText(q, id)) : []),
    key: (q, k) => (Array.isArray(k) ? k.map((id) => optionText(q, id)) : []),
  },
  true_false: {
    render: trueFalse,
    response: (_q, r) => [tf(r)],
    key: (_q, k) => [tf(k)],
  },
  short_text: {
    render: (context) => textAnswer(context, { label: TEXT.shortTextLabel, maxLength: 1000 }),
    response: (_q, r) => [String(r)],
    key: (_q, k) => (Array.isArray(k) ? k.map(String) : []),
  },
  numeric: {
    render: numericAnswer,
    response: (_q, r) => [String(r)],
    key: (_q, k) => [k && typeof k === "object" ? (k.tolerance ? `${k.value} ± ${k.tolerance}` : String(k.value)) : String(k)],
  },
  ordering: {
    render: ordering,
    response: (q, r) => (Array.isArray(r) ? r.map((id, i) => `${i + 1}. ${itemText(q.items, id, q.content_format)}`) : []),
    key: (q, k) => (Array.isArray(k) ? k.map((id, i) => `${i + 1}. ${itemText(q.items, id, q.content_format)}`) : []),
  },
  matching: {
    render: matching,
    response: (q, r) =>
      (q.prompts ?? []).map(
        (p) =>
          `${plainText(p.text, q.content_format)} → ${r?.[p.id] ? itemText(q.choices, r[p.id], q.content_format) : TEXT.noAnswer}`,
      ),
    key: (q, k) =>
      (q.prompts ?? []).map(
        (p) => `${plainText(p.text, q.content_format)} → ${k?.[p.id] ? itemText(q.choices, k[p.id], q.content_format) : "—"}`,
      ),
  },
  fill_in_blanks: {
    render: fillInBlanks,
    response: (q, r) =>
      blanksOf(q).map(
        (id, i) => `${blankLabel(i + 1, blanksOf(q).length)}: ${r && typeof r[id] === "string" ? r[id] : TEXT.noAnswer}`,
      ),
    key: (q, k) =>
      blanksOf(q).map((id, i) => `${blankLabel(i + 1, blanksOf(q).length)}: ${Array.isArray(k?.[id]) ? k[id].join(" / ") : "—"}`),
  },
  essay: {
    render: essayAnswer,
    response: (_q, r) => [String(r)],
    key: () => [],
  },
};
