import { describe, expect, it } from "vitest";
import { type QuestionInput, type QuizQuestion, readQuestionBank } from "../../src/interchange";
import { bytes, MOODLE } from "./fixtures";
import { gradesLikeTheSource, item, question, share } from "./helpers";
import { reimport, stored } from "./reimport";

describe("Moodle XML", () => {
  const result = readQuestionBank(bytes(MOODLE.types), { format: "moodle_xml" });

  it("reads each question in order: <name> as title and source id, the category's last segment and <tags> as tags", () => {
    expect(result.items.map((i) => [i.entry.source_id, i.entry.status, i.entry.type])).toEqual([
      ["Water", "imported", "multiple_choice"],
      ["Noble gas", "imported", "single_choice"],
      ["Boiling", "imported", "true_false"],
      ["Symbol", "approximated", "short_text"],
      ["Atomic number", "imported", "numeric"],
      ["Symbols", "imported", "matching"],
      ["Periods", "imported", "ordering"],
      ["Salt", "approximated", "fill_in_blanks"],
      ["Bonds", "imported", "essay"],
      ["Intro", "skipped", undefined],
      ["Molar mass", "skipped", undefined],
      ["Drag words", "skipped", undefined],
    ]);
    expect(item(result, "Water").question).toMatchObject({ title: "Water", tags: ["Chemistry", "elements"], points: 2 });
  });

  it("multichoice: fractions ±50% are partial credit as the service scores it; its HTML kept (CONTRACT §19); feedback kept", () => {
    const water = item(result, "Water");
    expect(water.entry.notes).toEqual([]);
    const q = question(water, "multiple_choice");
    expect(q).toMatchObject({
      content_format: "html",
      prompt: "<p>Which elements form <b>water</b>?</p>",
      explanation: "<p>H<sub>2</sub>O.</p>",
      correct_option_ids: ["a", "b"],
      scoring: "partial",
      feedback: { correct: "Well done.", incorrect: "Not quite." },
    });
    expect(q.options[0]?.feedback).toBe("Yes, two atoms.");
    gradesLikeTheSource(q, ["a", "b"], ["a", "c"]);
    expect(share(q, ["a"])).toBe(0.5);
    const single = question(item(result, "Noble gas"), "single_choice");
    expect(single.options[1]?.feedback).toBe("Nitrogen is not noble.");
    gradesLikeTheSource(single, "a", "b");
  });

  it("truefalse, shortanswer (case-sensitive, the 50% answer named), numerical with its points", () => {
    const tf = question(item(result, "Boiling"), "true_false");
    expect(tf).toMatchObject({ correct: true, feedback: { correct: "Correct.", incorrect: "It does." } });
    gradesLikeTheSource(tf, true, false);
    const symbol = item(result, "Symbol");
    expect(symbol.entry.notes).toEqual(['The answer "AU" gave 50% in the source; here it earns nothing.']);
    const sa = question(symbol, "short_text");
    expect(sa).toMatchObject({ accepted_answers: ["Au"], case_sensitive: true, feedback: { correct: "Aurum." } });
    gradesLikeTheSource(sa, "Au", "au");
    const num = question(item(result, "Atomic number"), "numeric");
    expect(num).toMatchObject({ correct_value: 6, tolerance: 0, points: 3 });
    gradesLikeTheSource(num, 6, 12);
  });

  it("matching with an extra answer, ordering by absolute position", () => {
    const m = question(item(result, "Symbols"), "matching");
    expect(m.choices!.map((c) => c.text)).toEqual(["Fe", "Ag", "Pb", "Sn"]);
    const id = (t: string) => m.choices!.find((c) => c.text === t)?.id ?? "";
    gradesLikeTheSource(m, { a: id("Fe"), b: id("Ag"), c: id("Pb") }, { a: id("Sn"), b: id("Ag"), c: id("Pb") });
    const o = question(item(result, "Periods"), "ordering");
    expect(o.items.map((i) => i.text)).toEqual(["Hydrogen", "Helium", "Lithium"]);
    const [h, he, li] = o.correct_order!;
    gradesLikeTheSource(o, [h, he, li], [he, h, li]);
    expect(share(o, [he, h, li])).toBeCloseTo(1 / 3, 6);
  });

  it("cloze: the prompt before the gaps, each gap a blank (case-sensitive where _C), the 50% answer named", () => {
    const salt = item(result, "Salt");
    const q = question(salt, "fill_in_blanks");
    expect(q).toMatchObject({ prompt: "Complete the sentence.", text: "Table salt is sodium {{a}} and its formula is {{b}}." });
    expect(q.blanks).toEqual([
      { id: "a", accepted_answers: ["chloride"], case_sensitive: false },
      { id: "b", accepted_answers: ["NaCl"], case_sensitive: true },
    ]);
    expect(salt.entry.notes).toContain('Gap 1: The answer "chlorine" gave 50% in the source; here it earns nothing.');
    gradesLikeTheSource(q, { a: "Chloride", b: "NaCl" }, { a: "chloride", b: "nacl" });
  });

  it("essay with rubric and word limit; description, calculated and other types skipped with the reason", () => {
    expect(question(item(result, "Bonds"), "essay")).toMatchObject({
      rubric: "Electron transfer versus sharing.",
      max_words: 200,
      points: 5,
    });
    expect(item(result, "Intro").entry.notes).toEqual(["Skipped: a description without an answer."]);
    expect(item(result, "Molar mass").entry.notes).toEqual(["Skipped: a calculated question."]);
    expect(item(result, "Drag words").entry.notes).toEqual(['Skipped: the question type "ddwtos" is not supported.']);
  });

  it("a file whose root is not <quiz> is unreadable", () => {
    expect(() => readQuestionBank(bytes("<?xml version='1.0'?><notaquiz/>"), { format: "moodle_xml" })).toThrow(
      /root element is <notaquiz>/,
    );
  });
});

describe("Moodle XML: an export reads back as it was written, here and in Moodle", () => {
  const only = (q: QuizQuestion) => {
    const { file, result } = reimport("moodle_xml", [q]);
    expect(file.skipped).toEqual([]);
    expect(result.items.map((i) => [i.entry.status, i.entry.notes])).toEqual([["imported", []]]);
    return { body: String(file.body), q: result.items[0]?.question as QuestionInput };
  };
  const blank = (text: string, answers: string[], prompt = "Fill in") =>
    stored({
      type: "fill_in_blanks",
      prompt,
      text,
      blanks: [{ id: "a", accepted_answers: answers, case_sensitive: false }],
      scoring: "partial",
    });

  it("Cloze syntax a user wrote around the blanks stays text, not new blanks", () => {
    for (const text of ["Say {1:SHORTANSWER:=x} or {{a}} now", "Input {#1} and {{a}} {#2}", "{:SA:=y} {{a}} {2:MC:~a~=b}"]) {
      const { body, q } = only(blank(text, ["right"]));
      expect(q).toMatchObject({ prompt: "Fill in", text, blanks: [{ id: "a", accepted_answers: ["right"] }] });
      // Moodle's own reader finds its subquestions with this pattern: one, the blank.
      const cloze = body.match(/\{\d*:(SHORTANSWER|SA|MW|MULTICHOICE|MC|NUMERICAL|NM)[^}]*\}|\{#\d+\}/g) ?? [];
      expect(cloze).toHaveLength(1);
    }
  });

  it("a blank's answers keep ~ # } { \\ & * and entities, as Moodle's Cloze and short-answer rules read them", () => {
    const answers = ["a~b", "c#d", "e}f{g", "h\\", "i\\}j\\#", "&amp; &#126;", "k*l", "%50%m"];
    const { body, q } = only(blank("Type {{a}} here", answers));
    expect(q).toMatchObject({ blanks: [{ accepted_answers: answers }] });
    expect(body).not.toMatch(/=k\*l/);
  });

  it('"*" in a short answer is a star, not Moodle\'s wildcard: written \\*, read back as "*"', () => {
    const { body, q } = only(
      stored({ type: "short_text", prompt: "Say", accepted_answers: ["a*b", "\\*"], case_sensitive: true }),
    );
    expect(body).toContain("<text>a\\*b</text>");
    expect(q).toMatchObject({ accepted_answers: ["a*b", "\\*"] });
    const wild = readQuestionBank(
      bytes(
        '<quiz><question type="shortanswer"><name><text>W</text></name><questiontext format="plain_text"><text>Say</text></questiontext><answer fraction="100"><text>a*b</text></answer></question></quiz>',
      ),
      { format: "moodle_xml" },
    ).items[0];
    expect(wild?.entry.notes).toEqual(['The wildcard "*" in an answer is matched literally here.']);
    expect(wild?.question).toMatchObject({ accepted_answers: ["a*b"] });
  });

  it("a CR stays a CR and a no-break space stays one", () => {
    const prompt = "One\rtwo\r\nthree\u00a0four";
    const { q } = only(
      stored({
        type: "single_choice",
        title: "No\u00a0break",
        prompt,
        options: [
          { id: "a", text: "x\u00a0y", feedback: "f\rg" },
          { id: "b", text: "two  spaces" },
        ],
        correct_option_id: "a",
      }),
    );
    expect(q).toMatchObject({
      title: "No\u00a0break",
      prompt,
      options: [{ text: "x\u00a0y", feedback: "f\rg" }, { text: "two  spaces" }],
    });
  });

  it("a fill-in text that breaks lines before its first blank keeps its lines apart from the prompt", () => {
    const { q } = only(blank("First line\nsecond {{a}} line", ["x"], "Prompt\nof two lines"));
    expect(q).toMatchObject({ prompt: "Prompt\nof two lines", text: "First line\nsecond {{a}} line" });
  });
});
