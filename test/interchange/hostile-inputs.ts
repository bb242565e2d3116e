import { type Zippable, zipSync } from "fflate";
import type { ImportFormat } from "../../src/interchange";
import { bytes } from "./fixtures";

/**
 * Small hostile files, each of a given size in bytes, that made a reader or the request's format
 * recognition run in time quadratic in their size; here and through POST /v1/imports each must
 * cost at most linear time and end with its documented answer. `format`: what the read is told
 * (undefined: recognised); `expect`: the format recognised, the refusal's code, or "read" when
 * the file reads, its items imported or skipped.
 */
export interface HostileFile {
  name: string;
  file: (size: number) => Uint8Array;
  mediaType: string;
  format?: ImportFormat;
  expect: string;
}

const fill = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));
/** A Moodle XML file of one question whose HTML text is `html`. */
const moodleHtml = (html: string) =>
  `<quiz><question type="essay"><name><text>Q</text></name><questiontext format="html"><text><![CDATA[${html}]]></text></questiontext></question></quiz>`;
const moodleCloze = (text: string) =>
  `<quiz><question type="multianswer"><name><text>Q</text></name><questiontext format="html"><text><![CDATA[${text}]]></text></questiontext></question></quiz>`;

/** Recognised on the request: the format is told from the file's start, however it goes on. */
export const RECOGNITION: HostileFile[] = [
  { name: "newlines", file: (n) => bytes(fill("\n", n)), mediaType: "text/plain", expect: "unknown_format" },
  { name: "white space and newlines", file: (n) => bytes(fill(" \n\t", n)), mediaType: "text/plain", expect: "unknown_format" },
  {
    name: "option lines without an ANSWER",
    file: (n) => bytes(fill("A. x\n", n)),
    mediaType: "text/plain",
    expect: "unknown_format",
  },
  {
    name: "processing instructions opened",
    file: (n) => bytes(fill("<?", n)),
    mediaType: "application/xml",
    expect: "unknown_format",
  },
  { name: "comments opened", file: (n) => bytes(fill("<!--", n)), mediaType: "application/xml", expect: "unknown_format" },
  {
    name: "a DOCTYPE opened again and again",
    file: (n) => bytes(fill("<!DOCTYPE [", n)),
    mediaType: "application/xml",
    expect: "unknown_format",
  },
];

/** Read by the job: every reader but GIFT's, whose patterns are another suite's. */
export const READING: HostileFile[] = [
  {
    name: "Aiken: newlines",
    file: (n) => bytes(fill("\n", n)),
    mediaType: "text/plain",
    format: "aiken",
    expect: "unreadable_file",
  },
  {
    name: "Aiken: lines of white space",
    file: (n) => bytes(fill(" \t\r\n", n)),
    mediaType: "text/plain",
    format: "aiken",
    expect: "unreadable_file",
  },
  {
    name: "XML: a start tag that never closes",
    file: (n) => bytes(`<quiz${fill(" ", n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: attributes opened again and again",
    file: (n) => bytes(`<quiz ${fill('a="', n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: comments and CDATA opened",
    file: (n) => bytes(`<quiz>${fill("<!--<![CDATA[", n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: elements nested 90 deep, again and again",
    file: (n) => bytes(`<quiz>${fill(`${"<a>".repeat(90)}${"</a>".repeat(90)}`, n)}</quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  // saxes's own paths, each read once per character and stopped at its first error.
  {
    name: "XML: many attributes on one element",
    file: (n) => bytes(`<quiz>${fill(`<a ${Array.from({ length: 99 }, (_, i) => `a${i}=""`).join(" ")}/>`, n)}</quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: more attributes on one element than the reader reads",
    file: (n) => bytes(`<quiz ${Array.from({ length: Math.floor(n / 8) }, (_, i) => `a${i}=""`).join(" ")}/>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: a very long element name",
    file: (n) => bytes(`<quiz><${fill("a", n)}/></quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: a very long attribute name and value",
    file: (n) => bytes(`<quiz ${fill("a", n / 2)}="${fill("&amp;-", n / 2)}"/>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: a long comment of dashes",
    file: (n) => bytes(`<quiz><!--${fill("-x", n)}--></quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: many short text nodes",
    file: (n) => bytes(`<quiz>${fill("<a>x</a>", n)}</quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: text cut by comments again and again",
    file: (n) => bytes(`<quiz><a>${fill("x<!---->", n)}</a></quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: entity and character references",
    file: (n) => bytes(`<quiz><a>${fill("&lt;&#x41;&#66;", n)}</a></quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: CDATA of brackets",
    file: (n) => bytes(`<quiz><![CDATA[${fill("]]x]", n)}]]></quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: elements nested to the limit, again and again",
    file: (n) => bytes(`<quiz>${fill(`${"<a>".repeat(99)}${"</a>".repeat(99)}`, n)}</quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
  {
    name: "XML: an entity reference that never ends",
    file: (n) => bytes(`<quiz>&${fill("a", n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: a markup declaration that never ends",
    file: (n) => bytes(`<quiz><!${fill("x", n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: an error in every character",
    file: (n) => bytes(`<quiz>${fill("\u0001", n)}</quiz>`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  {
    name: "XML: a DOCTYPE whose internal subset never ends",
    file: (n) => bytes(`<!DOCTYPE quiz [${fill("<!ENTITY x 'y'>", n)}`),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "unreadable_file",
  },
  ...[
    ["comments that never close", "<!--"],
    ["script that never ends", "<script>"],
    ["formulas that never end", "<math>"],
    ["TeX that never closes", "\\("],
    ["display TeX that never closes", "\\["],
    ["tags that never close", "<a"],
    ["declarations that never close", "<!x"],
  ].map(
    ([what, unit]): HostileFile => ({
      name: `HTML: ${what}`,
      file: (n) => bytes(moodleHtml(fill(unit as string, n))),
      mediaType: "application/xml",
      format: "moodle_xml",
      expect: "read",
    }),
  ),
  {
    name: "Moodle Cloze: embedded answers that never close",
    file: (n) => bytes(moodleCloze(fill("{1:SA:", n))),
    mediaType: "application/xml",
    format: "moodle_xml",
    expect: "read",
  },
];

const choices = (n: number) =>
  Array.from({ length: n }, (_, i) => `<simpleChoice identifier="C${i}">Option ${i}</simpleChoice>`).join("");

/** A ten-option multiple choice whose custom processing sums `terms` values: each run evaluates them all. */
export const heavyItem = (terms: number, identifier = "heavy") =>
  `<?xml version="1.0"?><assessmentItem identifier="${identifier}" title="Heavy">
<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="identifier"><correctResponse><value>C0</value><value>C1</value></correctResponse>
<mapping defaultValue="-1" lowerBound="0"><mapEntry mapKey="C0" mappedValue="1"/><mapEntry mapKey="C1" mappedValue="1"/></mapping></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
<itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="0"><prompt>Pick the first two.</prompt>${choices(10)}</choiceInteraction></itemBody>
<responseProcessing><setOutcomeValue identifier="SCORE"><sum>${'<baseValue baseType="float">0</baseValue>'.repeat(terms - 1)}<mapResponse identifier="RESPONSE"/></sum></setOutcomeValue></responseProcessing></assessmentItem>`;

const TEST_MANIFEST = `<manifest><resources><resource identifier="T" type="imsqti_test_xmlv2p1" href="test.xml"/></resources></manifest>`;

/** A package whose test refers `references` times to one item whose processing sums 1 000 values (about 1.3 KB zipped). */
export function repeatedReferences(references: number): Uint8Array {
  const refs = '<assessmentItemRef identifier="r" href="item.xml"/>'.repeat(references);
  return zipSync({
    "imsmanifest.xml": bytes(TEST_MANIFEST),
    "test.xml": bytes(
      `<assessmentTest identifier="t" title="References"><testPart identifier="p"><assessmentSection identifier="s">${refs}</assessmentSection></testPart></assessmentTest>`,
    ),
    "item.xml": bytes(heavyItem(1000)),
  });
}

/** A package of `count` distinct items (no test), each made by `item`. */
export function manyItems(count: number, item: (i: number) => string): Uint8Array {
  const files: Zippable = {};
  const resources: string[] = [];
  for (let i = 0; i < count; i++) {
    files[`items/i${i}.xml`] = bytes(item(i));
    resources.push(`<resource identifier="R${i}" type="imsqti_item_xmlv2p1" href="items/i${i}.xml"/>`);
  }
  files["imsmanifest.xml"] = bytes(`<manifest><resources>${resources.join("")}</resources></manifest>`);
  return zipSync(files);
}
