import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BUDGET, InterchangeError, type InterchangeErrorCode, readQuestionBank } from "../../src/interchange";
import { probes } from "../../src/interchange/formats/qti/probe";
import { bytes, QTI } from "./fixtures";
import { heavyItem, manyItems, repeatedReferences } from "./hostile-inputs";
import { BOMB_MANIFEST, deflatedZeros, rawZip } from "./zips";

/** Each limit of the read's work budget (src/interchange/budget.ts, docs/security.md) refuses with its code. */

function refusal(read: () => unknown): { code: InterchangeErrorCode | "none"; detail?: string } {
  try {
    read();
    return { code: "none" };
  } catch (error) {
    if (error instanceof InterchangeError) return { code: error.code, detail: error.detail };
    throw error;
  }
}

const question = (i: number) =>
  `<question type="truefalse"><name><text>Q${i}</text></name><questiontext format="plain_text"><text>Yes?</text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>`;
const moodle = (questions: number) => bytes(`<quiz>${Array.from({ length: questions }, (_, i) => question(i)).join("")}</quiz>`);
/** A package without a test whose manifest lists `resources` item resources, all of one file. */
const sameItem = (resources: number) =>
  zipSync({
    "imsmanifest.xml": bytes(
      `<manifest><resources>${'<resource identifier="R" type="imsqti_item_xmlv2p1" href="item.xml"/>'.repeat(resources)}</resources></manifest>`,
    ),
    "item.xml": bytes(QTI.trueFalseV3),
  });
const aiken = (questions: number) => bytes("Capital of France?\nA. Paris\nB. Rome\nANSWER: A\n\n".repeat(questions));

describe(`items: at most ${BUDGET.items}, refused before they are read`, () => {
  it.each([
    ["a QTI test's references", (n: number) => repeatedReferences(n), undefined],
    ["a package's item resources", (n: number) => sameItem(n), undefined],
    ["Moodle XML questions", moodle, "moodle_xml"],
    ["Aiken questions", aiken, "aiken"],
  ] as const)("%s: 1 000 are read, 1 001 → too_many_items", (_, file, format) => {
    expect(readQuestionBank(file(BUDGET.items), { format }).items).toHaveLength(BUDGET.items);
    expect(refusal(() => readQuestionBank(file(BUDGET.items + 1), { format })).code).toBe("too_many_items");
  });

  it("references to a missing or unreadable file count like any other", () => {
    const refs = '<assessmentItemRef identifier="r" href="nowhere.xml"/>'.repeat(BUDGET.items + 1);
    const data = zipSync({
      "imsmanifest.xml": bytes(
        '<manifest><resources><resource identifier="T" type="imsqti_test_xmlv2p1" href="t.xml"/></resources></manifest>',
      ),
      "t.xml": bytes(
        `<assessmentTest identifier="t"><testPart identifier="p"><assessmentSection identifier="s">${refs}</assessmentSection></testPart></assessmentTest>`,
      ),
    });
    expect(refusal(() => readQuestionBank(data))).toMatchObject({
      code: "too_many_items",
      detail: expect.stringContaining("1001"),
    });
  });
});

describe("an item the test refers to many times is read once", () => {
  it("1 000 references: 1 000 report lines and questions, each its own entry, the source id the item's identifier", () => {
    const result = readQuestionBank(repeatedReferences(1000));
    expect(result.items).toHaveLength(1000);
    expect(new Set(result.items.map((i) => i.entry.source_id))).toEqual(new Set(["heavy"]));
    expect(new Set(result.items.map((i) => i.entry))).toHaveProperty("size", 1000);
    expect(result.items.every((i) => i.question?.type === "multiple_choice")).toBe(true);
  });

  it("an item without an identifier is named by each place it stands at", () => {
    const refs = '<assessmentItemRef identifier="r" href="item.xml"/>'.repeat(3);
    const data = zipSync({
      "imsmanifest.xml": bytes(
        '<manifest><resources><resource identifier="T" type="imsqti_test_xmlv2p1" href="t.xml"/></resources></manifest>',
      ),
      "t.xml": bytes(
        `<assessmentTest identifier="t"><testPart identifier="p"><assessmentSection identifier="s">${refs}</assessmentSection></testPart></assessmentTest>`,
      ),
      "item.xml": bytes(QTI.choiceV2p1.replace(/ identifier="[^"]*"/, "")),
    });
    expect(readQuestionBank(data).items.map((i) => i.entry.source_id)).toEqual(["1", "2", "3"]);
  });
});

describe(`response processing: at most ${BUDGET.evaluationSteps.toLocaleString("en-US")} steps → too_complex`, () => {
  it("items whose processing sums 1 000 terms: a few are read, a package of a hundred is refused", () => {
    expect(readQuestionBank(manyItems(3, (i) => heavyItem(1000, `h${i}`))).items.map((i) => i.entry.status)).toEqual([
      "imported",
      "imported",
      "imported",
    ]);
    expect(refusal(() => readQuestionBank(manyItems(100, (i) => heavyItem(1000, `h${i}`))))).toMatchObject({
      code: "too_complex",
      detail: expect.stringContaining("steps of response processing"),
    });
  });
});

describe(`probes: at most ${BUDGET.probesPerItem} responses an item`, () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
  const choice = (n: number) => ({
    id: "q",
    type: "multiple_choice" as const,
    prompt: "",
    points: 1,
    feedback: {},
    explanation: null,
    options: ids(n).map((id) => ({ id, text: id })),
    correct_option_ids: ["o0", "o1"],
    scoring: "partial" as const,
  });

  it("a ten-option multiple choice is probed with 33 responses, not every subset (1 025)", () => {
    expect(probes(choice(10) as never)).toHaveLength(33);
  });

  it("small lists are still probed exhaustively: every subset of 7 options", () => {
    expect(probes(choice(7) as never)).toHaveLength(1 + 128);
  });

  it("no list makes more than the cap", () => {
    const order = { ...choice(26), type: "ordering", items: ids(26).map((id) => ({ id, text: id })), correct_order: ids(26) };
    for (const q of [choice(26), order]) expect(probes(q as never).length).toBeLessThanOrEqual(BUDGET.probesPerItem);
  });
});

describe("XML nodes", { timeout: 60_000 }, () => {
  it(`one document of more than ${BUDGET.xmlNodesPerDocument.toLocaleString("en-US")} elements and texts → too_complex`, () => {
    const file = (n: number) => bytes(`<quiz>${"<a/>".repeat(n)}</quiz>`);
    expect(readQuestionBank(file(BUDGET.xmlNodesPerDocument - 1), { format: "moodle_xml" }).items).toEqual([]);
    expect(refusal(() => readQuestionBank(file(BUDGET.xmlNodesPerDocument), { format: "moodle_xml" })).code).toBe("too_complex");
  });

  it("attributes count as nodes: elements and their attributes past the limit → too_complex", () => {
    // The root and each element with its attribute: 1 + 2 × elements nodes.
    const file = (elements: number) => bytes(`<quiz>${'<a b=""/>'.repeat(elements)}</quiz>`);
    const most = Math.floor((BUDGET.xmlNodesPerDocument - 1) / 2);
    expect(readQuestionBank(file(most), { format: "moodle_xml" }).items).toEqual([]);
    expect(refusal(() => readQuestionBank(file(most + 1), { format: "moodle_xml" }))).toMatchObject({
      code: "too_complex",
      detail: expect.stringContaining("elements, attributes and texts"),
    });
  });

  it(`more than ${BUDGET.xmlNodes.toLocaleString("en-US")} in all the documents of a package → too_complex`, () => {
    const per = BUDGET.xmlNodesPerDocument - 10;
    const item = (i: number) => `<assessmentItem identifier="i${i}">${"<a/>".repeat(per)}</assessmentItem>`;
    const count = Math.ceil(BUDGET.xmlNodes / per);
    expect(readQuestionBank(manyItems(count - 1, item)).items).toHaveLength(count - 1);
    expect(refusal(() => readQuestionBank(manyItems(count, item))).code).toBe("too_complex");
  });
});

// Real volume: up to 105 MiB inflated, and a million XML nodes parsed.
describe("inflated bytes", { timeout: 60_000 }, () => {
  it("an XML entry no pass reads is never inflated: a bomb among them costs nothing", () => {
    const stored = (name: string, text: string) => ({ name, data: bytes(text), method: 0 as const, crc: 0, size: text.length });
    const bomb = { name: "unused/bomb.xml", data: deflatedZeros(101), method: 8 as const, crc: 0, size: 1024 };
    const manifest = `<manifest><resources><resource identifier="I" type="imsqti_item_xmlv2p1" href="item.xml"/></resources></manifest>`;
    const result = readQuestionBank(rawZip([stored("imsmanifest.xml", manifest), stored("item.xml", QTI.choiceV2p1), bomb]));
    expect(result.items.map((i) => i.entry.status)).toEqual(["imported"]);
  });

  it("entries that are read count together, over every pass: seven that inflate to 15 MiB each → unsafe_package", () => {
    const entries = Array.from({ length: 7 }, (_, i) => ({
      name: `items/bomb${i}.xml`,
      data: deflatedZeros(15),
      method: 8 as const,
      crc: 0,
      size: 1024,
    }));
    const manifest = BOMB_MANIFEST.replace(
      /<resource .*<\/resources>/,
      `${entries.map((e, i) => `<resource identifier="B${i}" type="imsqti_item_xmlv2p1" href="${e.name}"/>`).join("")}</resources>`,
    );
    const data = rawZip([
      { name: "imsmanifest.xml", data: bytes(manifest), method: 0, crc: 0, size: manifest.length },
      ...entries,
    ]);
    expect(refusal(() => readQuestionBank(data))).toEqual({
      code: "unsafe_package",
      detail: "The package inflates to more than 100 MiB.",
    });
  });
});
