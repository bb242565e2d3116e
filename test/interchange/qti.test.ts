import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { planImport } from "../../src/imports/plan";
import { readQuestionBank } from "../../src/interchange";
import { bytes, QTI } from "./fixtures";
import { gradesLikeTheSource, question, share } from "./helpers";

const one = (xml: string) => {
  const result = readQuestionBank(bytes(xml), { mediaType: "application/xml" });
  expect(result.format).toBe("qti");
  expect(result.items).toHaveLength(1);
  return result.items[0]!;
};

describe("QTI items (2.1, 2.2 and 3.0)", () => {
  it("choice (2.1, match_correct): single choice with inline option feedback and modal feedback", () => {
    const i = one(QTI.choiceV2p1);
    expect(i.entry).toEqual({
      source_id: "capital-choice",
      title: "Capital of Norway",
      status: "imported",
      type: "single_choice",
      notes: [],
    });
    const q = question(i, "single_choice");
    expect(q.prompt).toBe("Norway's capital lies at the end of a fjord.\nWhich city is the capital of Norway?");
    expect(q.options).toEqual([
      { id: "ChoiceA", text: "Bergen", feedback: "Bergen is on the west coast." },
      { id: "ChoiceB", text: "Oslo" },
      { id: "ChoiceC", text: "Trondheim" },
    ]);
    expect(q.feedback).toEqual({ correct: "Yes, Oslo." });
    gradesLikeTheSource(q, "ChoiceB", "ChoiceA");
  });

  it("choice (2.2, map_response): +1 per right option and −1 per wrong one, floored at 0, is the service's partial scoring", () => {
    const i = one(QTI.choiceMultipleV2p2);
    expect(i.entry.status).toBe("imported");
    const q = question(i, "multiple_choice");
    expect(q).toMatchObject({ correct_option_ids: ["N2", "N4"], scoring: "partial", points: 2 });
    gradesLikeTheSource(q, ["N2", "N4"], ["N2", "N3"]);
    expect(share(q, ["N2"])).toBe(0.5);
  });

  it("choice (3.0, map_response with unequal weights): approximated, with a response whose score differs", () => {
    const i = one(QTI.choiceMultipleUnequalV3);
    expect(i.entry.status).toBe("approximated");
    expect(i.entry.notes[0]).toMatch(/^Scores differ for some responses: .* in the source and .* here\.$/);
    const q = question(i, "multiple_choice");
    expect(q).toMatchObject({ correct_option_ids: ["W", "B"], scoring: "partial", points: 3 });
    gradesLikeTheSource(q, ["W", "B"], ["S"]);
  });

  it("two True/False choices become true_false", () => {
    const q = question(one(QTI.trueFalseV3), "true_false");
    expect(q).toMatchObject({ prompt: "The Moon has its own light.", correct: false });
    gradesLikeTheSource(q, false, true);
  });

  it("text entry (3.0): short text from the mapping, case-insensitive; the blank's place is not in the prompt", () => {
    const i = one(QTI.textEntryV3);
    expect(i.entry.status).toBe("imported");
    const q = question(i, "short_text");
    expect(q).toMatchObject({
      prompt: "Which river is the longest in Africa?",
      accepted_answers: ["Nile", "the Nile"],
      case_sensitive: false,
    });
    gradesLikeTheSource(q, "nile", "Amazon");
  });

  it("numeric entry (2.1) with an absolute tolerance in custom processing, MAXSCORE as points", () => {
    const i = one(QTI.numericToleranceV2p1);
    expect(i.entry.status).toBe("imported");
    const q = question(i, "numeric");
    expect(q).toMatchObject({ correct_value: 9.81, tolerance: 0.05, points: 4 });
    gradesLikeTheSource(q, 9.85, 9.9);
  });

  it("order (3.0) → ordering, all or nothing under match_correct", () => {
    const q = question(one(QTI.orderV3), "ordering");
    expect(q).toMatchObject({ correct_order: ["Mercury", "Venus", "Earth"], scoring: "all_or_nothing" });
    gradesLikeTheSource(q, ["Mercury", "Venus", "Earth"], ["Mercury", "Earth", "Venus"]);
  });

  it("match (2.2, map_response 1 per pair) → matching, partial per prompt, the unused choice kept", () => {
    const i = one(QTI.matchV2p2);
    expect(i.entry.status).toBe("imported");
    const q = question(i, "matching");
    expect(q.correct_matches).toEqual({ Tolstoy: "WarPeace", Austen: "Pride", Melville: "MobyDick" });
    expect(q.choices!.map((c) => c.id)).toEqual(["WarPeace", "Pride", "MobyDick", "Ulysses"]);
    expect(q).toMatchObject({ scoring: "partial", points: 3 });
    gradesLikeTheSource(q, q.correct_matches, { Tolstoy: "Ulysses", Austen: "Pride", Melville: "MobyDick" });
  });

  it("several text entries (2.2, summed mappings) → fill in the blanks, partial", () => {
    const i = one(QTI.blanksV2p2);
    expect(i.entry.status).toBe("imported");
    const q = question(i, "fill_in_blanks");
    expect(q).toMatchObject({
      prompt: "Complete the sentence.",
      text: "The capital of Italy is {{CITY}} on the river {{RIVER}}.",
      scoring: "partial",
      points: 2,
    });
    gradesLikeTheSource(q, { CITY: "rome", RIVER: "Tiber" }, { CITY: "Rome", RIVER: "Po" });
  });

  it("gap match (3.0) and inline choice (2.1) → fill in the blanks, approximated and saying so", () => {
    const gap = one(QTI.gapMatchV3);
    expect(gap.entry.status).toBe("approximated");
    expect(gap.entry.notes).toContain(
      "The word bank of the gap match became typed answers: each gap accepts its right word's text.",
    );
    const g = question(gap, "fill_in_blanks");
    expect(g.text).toBe("The coldest season is {{G1}} and the warmest is {{G2}}.");
    gradesLikeTheSource(g, { G1: "winter", G2: "summer" }, { G1: "summer", G2: "winter" });
    const inline = one(QTI.inlineChoiceV2p1);
    expect(inline.entry.notes).toEqual(['The inline choice "RESPONSE" became a blank accepting its right option\'s text.']);
    const q = question(inline, "fill_in_blanks");
    expect(q.blanks).toEqual([{ id: "RESPONSE", accepted_answers: ["mercury"], case_sensitive: false }]);
    gradesLikeTheSource(q, { RESPONSE: "mercury" }, { RESPONSE: "lead" });
  });

  it("extended text (3.0) → essay with the scorer's rubric and the normal-maximum as points", () => {
    const q = question(one(QTI.extendedTextV3), "essay");
    expect(q).toMatchObject({
      prompt: "Explain how greenhouse gases warm the planet.",
      rubric: "Mentions infrared radiation (5); names two gases (5).",
      points: 10,
    });
  });

  it("hotspot is skipped as an unsupported interaction", () => {
    expect(one(QTI.hotspotV3).entry).toEqual({
      source_id: "map-hotspot",
      title: "Find the city",
      status: "skipped",
      notes: ["Skipped: an unsupported interaction (hotspotInteraction)."],
    });
  });

  it("a test alone is unreadable: its items are in other files", () => {
    expect(() => readQuestionBank(bytes(QTI.package.test), { format: "qti" })).toThrow(/upload the content package/);
  });
});

const NOW = "2026-11-21T10:00:00.000Z";

describe("QTI content package (zip with imsmanifest.xml)", () => {
  const zip = zipSync({
    "imsmanifest.xml": bytes(QTI.package.manifest),
    "tests/warm-up.xml": bytes(QTI.package.test),
    "items/order-v3.xml": bytes(QTI.orderV3),
    "items/true-false-v3.xml": bytes(QTI.trueFalseV3),
  });

  it("reads the items in the test's order, the test's title, the manifest's keywords as tags, a missing file skipped", () => {
    const result = readQuestionBank(zip, { mediaType: "application/zip" });
    expect(result.title).toBe("Warm-up test");
    expect(result.items.map((i) => [i.entry.source_id, i.entry.status])).toEqual([
      ["tf-moon", "imported"],
      ["planets-order", "imported"],
      ["missing", "skipped"],
    ]);
    expect(result.items[1]?.question?.tags).toEqual(["astronomy"]);
    expect(result.items[2]?.entry.notes).toEqual(['Skipped: the item file "items/missing.xml" is not in the package.']);
  });

  it("without a test, the manifest's item resources in order, and the package's title", () => {
    const manifest = QTI.package.manifest.replace(/<resource identifier="TEST"[\s\S]*?<\/resource>/, "");
    const result = readQuestionBank(
      zipSync({
        "imsmanifest.xml": bytes(manifest),
        "items/order-v3.xml": bytes(QTI.orderV3),
        "items/true-false-v3.xml": bytes(QTI.trueFalseV3),
      }),
    );
    expect(result.title).toBe("Geography warm-up");
    expect(result.items.map((i) => i.entry.source_id)).toEqual(["planets-order", "tf-moon"]);
  });

  it("stops at the capacity left in the quiz: the rest are skipped as over 200 questions", () => {
    // The reader reads every item; the import's plan gives them the room the quiz has left (one here).
    const plan = planImport(
      readQuestionBank(zip),
      { id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r", questionCount: 199, answerBytes: 0 },
      NOW,
    );
    expect(plan.report[1]).toMatchObject({ status: "skipped", notes: ["Skipped: over 200 questions in the quiz."] });
  });
});

describe("QTI 2.1 items as MathAssess's tools write them", () => {
  const choice = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:m="http://www.w3.org/1998/Math/MathML"
  identifier="expand" title="Expand" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>A</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="multiple" baseType="identifier"/>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>Expand <m:math><m:mn>2</m:mn><m:mfenced><m:mi>x</m:mi></m:mfenced></m:math>.</p>
    <choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
      <simpleChoice identifier="A"><m:math><m:mn>2</m:mn><m:mi>x</m:mi></m:math></simpleChoice>
      <simpleChoice identifier="B"><m:math><m:mi>x</m:mi></m:math></simpleChoice>
    </choiceInteraction>
    ${body}
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>`;

  it("the explanation is the block named SOLUTION, not a later SEEN-SOLUTION notice or the button that asks for it", () => {
    const i = one(
      choice(`<feedbackBlock identifier="SOLUTION" outcomeIdentifier="FEEDBACK" showHide="show"><p>Multiply <m:math><m:mi>x</m:mi></m:math> by 2.</p></feedbackBlock>
    <feedbackBlock identifier="SEEN-SOLUTION" outcomeIdentifier="FEEDBACK" showHide="show"><p>Since you have viewed the solution, your score is 0.</p></feedbackBlock>
    <feedbackBlock identifier="asksolution" outcomeIdentifier="ASKSOLUTION" showHide="show"><p><endAttemptInteraction responseIdentifier="SOLREQUEST" title="Show Solution"/></p></feedbackBlock>`),
    );
    expect(i.entry).toMatchObject({ status: "imported", notes: [] });
    expect(question(i, "single_choice").explanation).toBe("<p>Multiply <math><mi>x</mi></math> by 2.</p>");
  });

  it("without a block named so, the first whose name holds solution or explanation", () => {
    const i = one(
      choice(`<feedbackBlock identifier="worked-solution" outcomeIdentifier="FEEDBACK" showHide="show"><p>First.</p></feedbackBlock>
    <feedbackBlock identifier="seen-solution" outcomeIdentifier="FEEDBACK" showHide="show"><p>Second.</p></feedbackBlock>`),
    );
    expect(question(i, "single_choice").explanation).toBe("<p>First.</p>");
  });

  it("MathML 2's mfenced is kept as its fences and separators around its arguments, not dropped with its brackets", () => {
    const i = one(choice(""));
    expect(i.entry).toMatchObject({ status: "imported", notes: [] });
    expect(question(i, "single_choice").prompt).toBe(
      "<p>Expand <math><mn>2</mn><mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow></math>.</p>",
    );
    const fences = one(
      choice("").replace(
        "<m:mfenced><m:mi>x</m:mi></m:mfenced>",
        '<m:mfenced open="[" close="&lt;" separators=";,"><m:mi>a</m:mi><m:mi>b</m:mi><m:mi>c</m:mi><m:mi>d</m:mi></m:mfenced>',
      ),
    );
    expect(question(fences, "single_choice").prompt).toBe(
      "<p>Expand <math><mn>2</mn><mrow><mo>[</mo><mi>a</mi><mo>;</mo><mi>b</mi><mo>,</mo><mi>c</mi><mo>,</mo><mi>d</mi><mo>&lt;</mo></mrow></math>.</p>",
    );
  });
});
