/**
 * QTI content packages out, 3.0 or 2.1: imsmanifest.xml, one assessment test, one item per
 * question. Each item declares its correct response and scores with a standard template
 * (match_correct; map_response where a mapping expresses partial credit) or, where no template
 * can (a numeric tolerance, ordering by position, blanks), with the few rules rp.ts runs.
 * Points are the item's MAXSCORE and SCORE's normal-maximum; the item title is the question's
 * title; tags are the item resource's LOM keywords; option feedback is inline in its choice;
 * question feedback and the explanation are modal feedback ("correct", "incorrect", "explanation").
 */
import { byType, type PerType } from "../../../domain/question-types";
import { paragraph } from "../../content";
import { assetFileName, assetUrl, type ExportContext, toXhtml } from "../../rich";
import type { ExportFile, QuizForExport, QuizQuestion } from "../../types";
import { escapeXml } from "../../xml";
import { writeZip } from "../../zip";
import { FILL_IN_BLANKS_CLASS, type QtiVersion, qtiNames } from "./names";

/** An identifier QTI accepts (an NCName): ids starting with a digit or "-" get a leading "_" (the reader drops it). */
const qtiId = (id: string) => (/^[A-Za-z_]/.test(id) ? id : `_${id}`);
const n = (x: number) => String(x);

export function writeQtiPackage(
  version: QtiVersion,
  quiz: QuizForExport,
  questions: QuizQuestion[],
  context: ExportContext = {},
): ExportFile {
  const q3 = qtiNames(version);
  const files: Record<string, string | Uint8Array> = {};
  const refs: string[] = [];
  const imagesOf = new Map<string, string[]>();
  for (const q of questions) {
    const href = `items/${q.id}.xml`;
    // An image the export carries is a file of the package (images/<asset id>.<ext>), referred to from its item.
    const images: string[] = [];
    const src = (id: string) => {
      const asset = context.assets?.get(id);
      if (!asset) return assetUrl(id, context.origin);
      const name = `images/${assetFileName(id, asset.mediaType)}`;
      files[name] = asset.bytes;
      if (!images.includes(name)) images.push(name);
      return `../${name}`;
    };
    files[href] = item(q3, q, q.content_format === "html" ? (html) => toXhtml(html, src) : undefined);
    imagesOf.set(q.id, images);
    refs.push(q3.el("assessmentItemRef", { identifier: qtiId(q.id), href: `../${href}` }));
  }
  const section = q3.el("assessmentSection", { identifier: "S1", title: quiz.title, visible: "true" }, refs.join(""));
  const testPart = q3.el("testPart", { identifier: "P1", navigationMode: "nonlinear", submissionMode: "simultaneous" }, section);
  files["tests/test.xml"] = q3.document("assessmentTest", { identifier: "T1", title: quiz.title }, testPart);
  files["imsmanifest.xml"] = manifest(q3, quiz, questions, imagesOf);
  return { body: writeZip(files), contentType: "application/zip", extension: "zip", skipped: [] };
}

function manifest(
  q3: ReturnType<typeof qtiNames>,
  quiz: QuizForExport,
  questions: QuizQuestion[],
  imagesOf: Map<string, string[]>,
): string {
  const keywords = (tags: string[]) =>
    tags.length === 0
      ? ""
      : `<metadata><imsmd:lom><imsmd:general>${tags.map((t) => `<imsmd:keyword><imsmd:string>${escapeXml(t)}</imsmd:string></imsmd:keyword>`).join("")}</imsmd:general></imsmd:lom></metadata>`;
  const items = questions.map(
    (q) =>
      `<resource identifier="R_${qtiId(q.id)}" type="${q3.itemResource}" href="items/${q.id}.xml">${keywords(q.tags ?? [])}<file href="items/${q.id}.xml"/>${(imagesOf.get(q.id) ?? []).map((name) => `<file href="${escapeXml(name)}"/>`).join("")}</resource>`,
  );
  const test = `<resource identifier="R_T1" type="${q3.testResource}" href="tests/test.xml"><file href="tests/test.xml"/>${questions.map((q) => `<dependency identifierref="R_${qtiId(q.id)}"/>`).join("")}</resource>`;
  const title = `<imsmd:lom><imsmd:general><imsmd:title><imsmd:string>${escapeXml(quiz.title)}</imsmd:string></imsmd:title>${quiz.description ? `<imsmd:description><imsmd:string>${escapeXml(quiz.description)}</imsmd:string></imsmd:description>` : ""}</imsmd:general></imsmd:lom>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="${q3.manifestNamespace}" xmlns:imsmd="http://ltsc.ieee.org/xsd/LOM" identifier="M1"><metadata><schema>${q3.schema}</schema><schemaversion>${q3.schemaVersion}</schemaversion>${title}</metadata><organizations/><resources>${test}${items.join("")}</resources></manifest>\n`;
}

type Names = ReturnType<typeof qtiNames>;

/** What an item's interaction is written with: the names, and the response declarations it adds to. */
interface ItemWriter {
  x: Names;
  /** A text of the question as XML content: escaped plain text, or (content_format "html") its XHTML. */
  content(s: string): string;
  declare(identifier: string, cardinality: string, baseType: string, correct: string[], mapping?: string): void;
  mapping(entries: [string, number, boolean?][], attrs: Record<string, string>): string;
  choices(list: { id: string; text: string; feedback?: string | null }[], tag?: string, attrs?: Record<string, string>): string;
}

/** An item's body after its prompt, and its response processing (default: the match_correct template). */
interface Interaction {
  body: string;
  rp?: string;
}

/** Each type as a QTI interaction, its correct response and how it scores. */
const INTERACTIONS: PerType<QuizQuestion, Interaction, [ItemWriter]> = {
  single_choice: (q, { x, declare, choices }) => {
    declare("RESPONSE", "single", "identifier", [qtiId(q.correct_option_id)]);
    return {
      body: x.el("choiceInteraction", { responseIdentifier: "RESPONSE", shuffle: "false", maxChoices: "1" }, choices(q.options)),
    };
  },
  true_false: (q, { x, declare, choices }) => {
    declare("RESPONSE", "single", "identifier", [String(q.correct)]);
    return {
      body: x.el(
        "choiceInteraction",
        { responseIdentifier: "RESPONSE", shuffle: "false", maxChoices: "1" },
        choices([
          { id: "true", text: "True" },
          { id: "false", text: "False" },
        ]),
      ),
    };
  },
  multiple_choice: (q, { x, declare, mapping, choices }) => {
    const P = q.points;
    const k = q.correct_option_ids.length;
    const partial = q.scoring === "partial";
    const map = partial
      ? mapping(
          q.options.map((o) => [qtiId(o.id), (q.correct_option_ids.includes(o.id) ? P : -P) / k]),
          { lowerBound: "0", upperBound: n(P) },
        )
      : "";
    declare("RESPONSE", "multiple", "identifier", q.correct_option_ids.map(qtiId), map);
    return {
      body: x.el("choiceInteraction", { responseIdentifier: "RESPONSE", shuffle: "false", maxChoices: "0" }, choices(q.options)),
      ...(partial ? { rp: x.template("map_response") } : {}),
    };
  },
  short_text: (q, { x, declare, mapping }) => {
    declare(
      "RESPONSE",
      "single",
      "string",
      [q.accepted_answers[0] ?? ""],
      mapping(
        q.accepted_answers.map((a) => [a, 1, q.case_sensitive]),
        { upperBound: "1" },
      ),
    );
    return { body: `<p>${x.el("textEntryInteraction", { responseIdentifier: "RESPONSE" })}</p>`, rp: x.template("map_response") };
  },
  numeric: (q, { x, declare }) => {
    declare("RESPONSE", "single", "float", [n(q.correct_value)]);
    const body = `<p>${x.el("textEntryInteraction", { responseIdentifier: "RESPONSE" })}</p>`;
    if (!(q.tolerance > 0)) return { body };
    const test = x.el(
      "equal",
      { toleranceMode: "absolute", tolerance: `${q.tolerance} ${q.tolerance}` },
      `${x.el("variable", { identifier: "RESPONSE" })}${x.el("correct", { identifier: "RESPONSE" })}`,
    );
    return {
      body,
      rp: x.rules(x.condition([[test, x.set("SCORE", x.value("float", "1"))]], x.set("SCORE", x.value("float", "0")))),
    };
  },
  ordering: (q, { x, declare, choices }) => {
    const P = q.points;
    const texts = new Map(q.items.map((i) => [i.id, i.text]));
    declare("RESPONSE", "ordered", "identifier", q.correct_order.map(qtiId));
    const body = x.el(
      "orderInteraction",
      { responseIdentifier: "RESPONSE", shuffle: "true" },
      choices(q.correct_order.map((id) => ({ id, text: texts.get(id) ?? "" })).sort((a, b) => (a.id < b.id ? -1 : 1))),
    );
    if (q.scoring !== "partial") return { body };
    // A share of the points per item in its place: QTI has no template for it.
    const place = q.correct_order.map((id, i) =>
      x.condition([
        [
          x.el(
            "match",
            {},
            `${x.el("index", { n: String(i + 1) }, x.el("variable", { identifier: "RESPONSE" }))}${x.value("identifier", qtiId(id))}`,
          ),
          x.set(
            "SCORE",
            x.el("sum", {}, `${x.el("variable", { identifier: "SCORE" })}${x.value("float", n(P / q.correct_order.length))}`),
          ),
        ],
      ]),
    );
    return { body, rp: x.rules(`${x.set("SCORE", x.value("float", "0"))}${place.join("")}`) };
  },
  matching: (q, { x, declare, mapping, choices }) => {
    const P = q.points;
    const pairs = Object.entries(q.correct_matches).map(([p, c]) => `${qtiId(p)} ${qtiId(c)}`);
    const partial = q.scoring === "partial";
    declare(
      "RESPONSE",
      "multiple",
      "directedPair",
      pairs,
      partial
        ? mapping(
            pairs.map((p) => [p, P / pairs.length]),
            { lowerBound: "0", upperBound: n(P) },
          )
        : "",
    );
    const sets =
      x.el("simpleMatchSet", {}, choices(q.prompts, "simpleAssociableChoice", { matchMax: "1" })) +
      x.el("simpleMatchSet", {}, choices(q.choices, "simpleAssociableChoice", { matchMax: "0" }));
    return {
      body: x.el(
        "matchInteraction",
        { responseIdentifier: "RESPONSE", shuffle: "true", maxAssociations: String(q.prompts.length) },
        sets,
      ),
      ...(partial ? { rp: x.template("map_response") } : {}),
    };
  },
  fill_in_blanks: (q, { x, declare, mapping, content }) => {
    const P = q.points;
    const share = q.scoring === "partial" ? P / q.blanks.length : 1;
    for (const b of q.blanks)
      declare(
        qtiId(b.id),
        "single",
        "string",
        [b.accepted_answers[0] ?? ""],
        mapping(
          b.accepted_answers.map((a) => [a, share, b.case_sensitive]),
          { upperBound: n(share) },
        ),
      );
    const html = q.content_format === "html";
    const text = (html ? content(q.text) : escapeXml(q.text)).replace(/\{\{([^{}]*)\}\}/g, (_, id: string) =>
      x.el("textEntryInteraction", { responseIdentifier: qtiId(id) }),
    );
    // HTML stands as written when it is blocks already, so that it reads back as it is; else it is a paragraph.
    const blocks = html && /^<(p|div|ul|ol|dl|table|blockquote|pre|figure)[\s>]/.test(text);
    const sum = x.el("sum", {}, q.blanks.map((b) => x.el("mapResponse", { identifier: qtiId(b.id) })).join(""));
    const all = x.el(
      "and",
      {},
      q.blanks
        .map((b) => x.el("gte", {}, `${x.el("mapResponse", { identifier: qtiId(b.id) })}${x.value("float", "1")}`))
        .join(""),
    );
    return {
      body: blocks ? text : html ? `<p>${text}</p>` : `<p>${text.split("\n").join("<br/>")}</p>`,
      rp:
        q.scoring === "partial"
          ? x.rules(x.set("SCORE", sum))
          : x.rules(x.condition([[all, x.set("SCORE", x.value("float", n(P)))]], x.set("SCORE", x.value("float", "0")))),
    };
  },
  essay: (q, { x, declare }) => {
    declare("RESPONSE", "single", "string", []);
    return {
      body: `${x.el("extendedTextInteraction", { responseIdentifier: "RESPONSE" })}${q.rubric ? x.el("rubricBlock", { view: "scorer" }, paragraph(q.rubric, escapeXml)) : ""}`,
      rp: "",
    };
  },
};

function item(x: Names, q: QuizQuestion, xhtml?: (html: string) => string): string {
  const content = xhtml ?? escapeXml;
  const decls: string[] = [];
  const outcome = `${x.el("outcomeDeclaration", { identifier: "SCORE", cardinality: "single", baseType: "float", normalMaximum: n(q.points) }, x.el("defaultValue", {}, x.el("value", {}, "0")))}${x.el("outcomeDeclaration", { identifier: "MAXSCORE", cardinality: "single", baseType: "float" }, x.el("defaultValue", {}, x.el("value", {}, n(q.points))))}${x.el("outcomeDeclaration", { identifier: "FEEDBACK", cardinality: "single", baseType: "identifier" })}`;
  const values = (list: string[]) => list.map((v) => x.el("value", {}, escapeXml(v))).join("");
  const writer: ItemWriter = {
    x,
    content,
    declare: (identifier, cardinality, baseType, correct, mapping = "") => {
      decls.push(
        x.el(
          "responseDeclaration",
          { identifier, cardinality, baseType },
          `${correct.length ? x.el("correctResponse", {}, values(correct)) : ""}${mapping}`,
        ),
      );
    },
    mapping: (entries, attrs) =>
      x.el(
        "mapping",
        { defaultValue: "0", ...attrs },
        entries
          .map(([key, value, cs]) =>
            x.el("mapEntry", { mapKey: key, mappedValue: n(value), ...(cs === undefined ? {} : { caseSensitive: String(cs) }) }),
          )
          .join(""),
      ),
    choices: (list, tag = "simpleChoice", attrs = {}) =>
      list
        .map((o) =>
          x.el(
            tag,
            { identifier: qtiId(o.id), ...attrs },
            `${content(o.text)}${o.feedback ? x.el("feedbackInline", { outcomeIdentifier: "FEEDBACK", identifier: qtiId(o.id), showHide: "show" }, content(o.feedback)) : ""}`,
          ),
        )
        .join(""),
  };
  // HTML is written as it is stored: it reads back the same (a plain text is one paragraph).
  const prompt = xhtml ? xhtml(q.prompt) : paragraph(q.prompt, escapeXml);
  const { body, rp = x.template("match_correct") } = byType(INTERACTIONS, q, writer);
  const feedback = (id: string, text: string | null | undefined) =>
    text ? x.el("modalFeedback", { outcomeIdentifier: "FEEDBACK", identifier: id, showHide: "show" }, content(text)) : "";
  const modal = `${feedback("correct", q.feedback.correct)}${feedback("incorrect", q.feedback.incorrect)}${feedback("explanation", q.explanation)}`;
  return x.document(
    "assessmentItem",
    { identifier: qtiId(q.id), title: q.title ?? "", adaptive: "false", timeDependent: "false" },
    // The class tells a one-blank fill-in-the-blanks from a short answer (one text entry) when read back.
    `${decls.join("")}${outcome}${x.el("itemBody", q.type === "fill_in_blanks" ? { class: FILL_IN_BLANKS_CLASS } : {}, `${prompt}${body}`)}${rp}${modal}`,
  );
}
