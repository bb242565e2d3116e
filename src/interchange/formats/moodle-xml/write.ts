/**
 * Moodle XML out, every text as plain_text (exactly what the service stores). Multiple choice
 * with partial credit weighs each right option +1/k and each wrong one −1/k, which Moodle's sum
 * of fractions scores like the service; all-or-nothing multiple choice uses the all-or-nothing
 * question type (qtype_multichoiceset). Fill in the blanks becomes Cloze. Matching and Cloze
 * score each part equally in Moodle, so their all-or-nothing forms (several parts) are left out.
 *
 * Texts are escaped for what Moodle reads in them (docs/security.md, "Exports escape what their
 * format reads"): a CR is "&#13;" (an XML parser makes a literal one a line feed); a short answer's
 * "*" is "\*" (Moodle's wildcard otherwise); a Cloze answer writes its special characters as
 * entities, which Moodle decodes; the text around the blanks, when it holds Cloze syntax of its
 * own, is written as HTML with "{" as "&#123;", or the question is left out where HTML would not
 * read back the same.
 */
import { byType, type PerType } from "../../../domain/question-types";
import { allOrNothingOfMany } from "../../all-or-nothing";
import { htmlText } from "../../content";
import { assetFileName, assetUrl, type ExportContext, imageIds, plainText, withImageSources } from "../../rich";
import { readShortAnswer, shortAnswerPattern } from "../../shortanswer";
import type { ExportFile, QuizForExport, QuizQuestion } from "../../types";
import { escapeXml } from "../../xml";
import { readClozeText } from "./text";

const xml = (s: string) => escapeXml(s).replaceAll("\r", "&#13;");
const text = (s: string | null | undefined) => `<text>${xml(s ?? "")}</text>`;
const fraction = (f: number) => Number((f * 100).toFixed(7));

/**
 * How a question's texts are written: plain_text, or (content_format "html") html with each image
 * as `@@PLUGINFILE@@/<asset id>.<ext>` and its bytes in a base64 `<file>` of the same text, as
 * Moodle exports them (an image whose bytes the export does not carry: its absolute URL).
 */
interface Texts {
  /** A text element `name` holding `s` (the question text, a feedback, …). */
  block(name: string, s: string | null | undefined): string;
  /** The format attribute, `<text>` and files of a text inside another element (an answer). */
  inner(s: string): { format: string; body: string };
  /** Plain text whatever the format (a matching answer). */
  plain(s: string): string;
}

const PLAIN: Texts = {
  block: (name, s) => `<${name} format="plain_text">${text(s)}</${name}>`,
  inner: (s) => ({ format: "plain_text", body: text(s) }),
  plain: (s) => s,
};

const base64 = (bytes: Uint8Array) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

function htmlTexts(context: ExportContext): Texts {
  const inner = (s: string) => {
    const files = imageIds(s)
      .map((id) => ({ id, asset: context.assets?.get(id) }))
      .filter((f) => f.asset !== undefined);
    const named = new Map(files.map((f) => [f.id, assetFileName(f.id, f.asset?.mediaType ?? "")]));
    const html = withImageSources(s, (id) => (named.has(id) ? `@@PLUGINFILE@@/${named.get(id)}` : assetUrl(id, context.origin)));
    const written = files.map(
      (f) => `<file name="${named.get(f.id)}" path="/" encoding="base64">${base64(f.asset?.bytes ?? new Uint8Array())}</file>`,
    );
    return { format: "html", body: `${text(html)}${written.join("")}` };
  };
  return {
    block: (name, s) => {
      const { format, body } = inner(s ?? "");
      return `<${name} format="${format}">${body}</${name}>`;
    },
    inner,
    plain: plainText,
  };
}

/** An answer: a text of the question (`t`), or (`value`) one compared as written, always plain text. */
function answer(t: Texts, f: number, body: string, feedback?: string | null, extra = "", value = false) {
  const { format, body: written } = (value ? PLAIN : t).inner(body);
  return `<answer fraction="${fraction(f)}" format="${format}">${written}${extra}${feedback ? t.block("feedback", feedback) : ""}</answer>`;
}

/**
 * A Cloze short answer as Moodle's qtype_multianswer reads it back: it decodes entities, then
 * unescapes "\}" and "\#" (so a backslash before those is doubled first); every character its
 * pattern splits on, and "<" ">" for an HTML text, is then an entity.
 */
const clozeAnswer = (s: string) =>
  shortAnswerPattern(s)
    .replace(/\\(?=[}#])/g, "\\\\")
    .replace(/[&~#{}\\<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Text Moodle's Cloze reader would take for an embedded answer (`{1:SHORTANSWER:`) or a gap's place (`{#1}`). */
const CLOZE_SYNTAX = /\{(?:\d*:[A-Z_]+:|#\d+\})/;
/** Where the prompt ends in a Cloze text: an empty CDATA section, nothing to Moodle, the end of the prompt to the reader. */
const PROMPT_END = "<![CDATA[]]>";
/** Plain text as HTML whose braces start nothing: "{" as "&#123;", line breaks as <br />. */
const html = (s: string) => s.replace(/[&<>{]/g, (c) => `&#${c.charCodeAt(0)};`).replaceAll("\n", "<br />");
/** Whether the reader's HTML reduction gives `s` back from html(s), nothing named lost. */
const readsBack = (s: string) => {
  const losses = new Set<string>();
  return htmlText(html(s), losses) === s && losses.size === 0;
};
/** Whether a Cloze answer in an HTML text reads back as itself (HTML folds runs of spaces and no-break spaces). */
const answerReadsBack = (answer: string) =>
  readShortAnswer(readClozeText(clozeAnswer(answer), (s) => htmlText(s, new Set()))).text === answer;

/** A fill-in-the-blanks question as Cloze, or undefined when Moodle could not read its text back. */
function cloze(q: QuizQuestion & { type: "fill_in_blanks" }, head: string, tail: string): string | undefined {
  const byId = new Map(q.blanks.map((b) => [b.id, b]));
  const pieces = q.text.split(/\{\{([^{}]*)\}\}/);
  const gap = (id: string) => {
    const b = byId.get(id);
    return `{1:${b?.case_sensitive ? "SHORTANSWER_C" : "SHORTANSWER"}:${(b?.accepted_answers ?? []).map((a) => `=${clozeAnswer(a)}`).join("~")}}`;
  };
  // Even pieces are text, odd ones blank ids.
  const written = (asText: (s: string) => string) => pieces.map((p, i) => (i % 2 === 0 ? asText(p) : gap(p))).join("");
  if (!CLOZE_SYNTAX.test(q.prompt) && !pieces.some((p, i) => i % 2 === 0 && CLOZE_SYNTAX.test(p)))
    return `<question type="cloze">${head}<questiontext format="plain_text"><text>${xml(q.prompt)}\n${PROMPT_END}${xml(written((s) => s))}</text></questiontext>${tail}</question>`;
  const marked = pieces.map((p, i) => (i % 2 === 0 ? p : `\ue010${i}\ue011`)).join("");
  if (!readsBack(q.prompt) || !readsBack(marked) || !q.blanks.every((b) => b.accepted_answers.every(answerReadsBack)))
    return undefined;
  return `<question type="cloze">${head}<questiontext format="html"><text>${escapeXml(`${html(q.prompt)}<br />`)}${PROMPT_END}${escapeXml(written(html))}</text></questiontext>${tail}</question>`;
}

/** The feedback for a right and a wrong answer, as Moodle's combined feedback. */
const combined = (q: QuizQuestion, t: Texts) =>
  t.block("correctfeedback", q.feedback.correct) + t.block("incorrectfeedback", q.feedback.incorrect);

/** Each type as Moodle's question type and the fields it reads (fill in the blanks is Cloze, written apart). */
const TYPE_FIELDS: PerType<QuizQuestion, { type: string; body: string } | undefined, [Texts]> = {
  single_choice: (q, t) => ({
    type: "multichoice",
    body: `<single>true</single><shuffleanswers>false</shuffleanswers>${combined(q, t)}${q.options.map((o) => answer(t, o.id === q.correct_option_id ? 1 : 0, o.text, o.feedback)).join("")}`,
  }),
  multiple_choice: (q, t) => {
    const k = q.correct_option_ids.length;
    const all = q.scoring === "all_or_nothing" && k > 1;
    const weight = (id: string) => (q.correct_option_ids.includes(id) ? 1 / k : all ? 0 : -1 / k);
    return {
      type: all ? "multichoiceset" : "multichoice",
      body: `<single>false</single><shuffleanswers>false</shuffleanswers>${combined(q, t)}${q.options.map((o) => answer(t, weight(o.id), o.text, o.feedback)).join("")}`,
    };
  },
  true_false: (q, t) => ({
    type: "truefalse",
    body: [true, false]
      .map((v) =>
        answer(t, v === q.correct ? 1 : 0, String(v), v === q.correct ? q.feedback.correct : q.feedback.incorrect, "", true),
      )
      .join(""),
  }),
  short_text: (q, t) => ({
    type: "shortanswer",
    body: `<usecase>${q.case_sensitive ? 1 : 0}</usecase>${q.accepted_answers.map((a) => answer(t, 1, shortAnswerPattern(a), q.feedback.correct, "", true)).join("")}${q.feedback.incorrect ? answer(t, 0, "*", q.feedback.incorrect, "", true) : ""}`,
  }),
  numeric: (q, t) => ({
    type: "numerical",
    body: `${answer(t, 1, String(q.correct_value), q.feedback.correct, `<tolerance>${q.tolerance}</tolerance>`, true)}${q.feedback.incorrect ? answer(t, 0, "*", q.feedback.incorrect, "<tolerance>0</tolerance>", true) : ""}`,
  }),
  matching: (q, t) => {
    const choice = new Map(q.choices.map((c) => [c.id, t.plain(c.text)]));
    const used = new Set(Object.values(q.correct_matches));
    const subquestion = (prompt: string, answer: string) => {
      const { format, body } = t.inner(prompt);
      return `<subquestion format="${format}">${body}<answer>${text(answer)}</answer></subquestion>`;
    };
    const pairs = q.prompts.map((p) => subquestion(p.text, choice.get(q.correct_matches[p.id] ?? "") ?? ""));
    // An extra choice is a subquestion without text: plain_text, so that the empty text reads as empty.
    const extra = q.choices
      .filter((c) => !used.has(c.id))
      .map((c) => `<subquestion format="plain_text">${text("")}<answer>${text(t.plain(c.text))}</answer></subquestion>`);
    return { type: "matching", body: `<shuffleanswers>true</shuffleanswers>${combined(q, t)}${pairs.join("")}${extra.join("")}` };
  },
  ordering: (q, t) => ({
    type: "ordering",
    body: `<layouttype>VERTICAL</layouttype><selecttype>ALL</selecttype><selectcount>0</selectcount><gradingtype>${q.scoring === "partial" ? "ABSOLUTE_POSITION" : "ALL_OR_NOTHING"}</gradingtype>${combined(q, t)}${q.correct_order.map((id, i) => answer(t, i + 1, q.items.find((item) => item.id === id)?.text ?? "")).join("")}`,
  }),
  essay: (q) => ({
    type: "essay",
    body: `<responseformat>editor</responseformat><responserequired>1</responserequired><attachments>0</attachments>${q.max_words ? `<maxwordlimit>${q.max_words}</maxwordlimit><minwordlimit>0</minwordlimit>` : ""}${PLAIN.block("graderinfo", q.rubric)}`,
  }),
  // Cloze (cloze()), which writes the whole question.
  fill_in_blanks: () => undefined,
};

/** A Cloze question in content_format "html": its texts' plain text (Cloze syntax stands in a text of its own). */
function clozeAsText(q: QuizQuestion & { type: "fill_in_blanks" }): QuizQuestion & { type: "fill_in_blanks" } {
  const markers = q.text.split(/(\{\{[^{}]*\}\})/);
  return {
    ...q,
    prompt: plainText(q.prompt),
    explanation: q.explanation && plainText(q.explanation),
    text: markers.map((part, i) => (i % 2 === 1 ? part : plainText(part))).join(""),
  };
}

function question(q: QuizQuestion, context: ExportContext): string | undefined {
  if (allOrNothingOfMany(q) && q.type !== "multiple_choice") return undefined;
  const html = q.content_format === "html";
  if (q.type === "fill_in_blanks" && html) return question({ ...clozeAsText(q), content_format: "text" }, context);
  const t = html ? htmlTexts(context) : PLAIN;
  const head = `<name>${text(q.title)}</name>`;
  const common = `${t.block("generalfeedback", q.explanation)}<defaultgrade>${q.points}</defaultgrade><penalty>0</penalty><hidden>0</hidden>`;
  const tags = q.tags?.length ? `<tags>${q.tags.map((tag) => `<tag>${text(tag)}</tag>`).join("")}</tags>` : "";
  if (q.type === "fill_in_blanks") return cloze(q, head, common + tags);
  const fields = byType(TYPE_FIELDS, q, t);
  return (
    fields &&
    `<question type="${fields.type}">${head}${t.block("questiontext", q.prompt)}${common}${fields.body}${tags}</question>`
  );
}

export function writeMoodleXml(quiz: QuizForExport, questions: QuizQuestion[], context: ExportContext = {}): ExportFile {
  const skipped: string[] = [];
  const out: string[] = [];
  for (const q of questions) {
    const xml = question(q, context);
    if (xml) out.push(xml);
    else skipped.push(q.id);
  }
  // "--" may not appear inside an XML comment.
  const comment = (s: string) => `<!-- ${s.replace(/-{2,}/g, "-")} -->`;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    comment(quiz.title),
    ...(skipped.length > 0 ? [comment(`Left out (Moodle XML cannot express them): ${skipped.join(", ")}`)] : []),
    "<quiz>",
    ...out,
    "</quiz>",
    "",
  ].join("\n");
  return { body, contentType: "application/xml", extension: "xml", skipped };
}
