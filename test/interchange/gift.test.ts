import { describe, expect, it } from "vitest";
import { type InterchangeError, readQuestionBank } from "../../src/interchange";
import { bytes, GIFT } from "./fixtures";
import { gradesLikeTheSource, item, question, share } from "./helpers";

const result = readQuestionBank(bytes(GIFT.kinds), { format: "gift" });

describe("GIFT: every kind of Moodle's documentation", () => {
  it("reads the questions in source order, a title as source id, the category and [tag:] comments as tags", () => {
    expect(result.format).toBe("gift");
    expect(result.items.map((i) => i.entry.source_id)).toEqual([
      "Capital of Peru",
      "Primes",
      "Rivers",
      "Equator",
      "Sun",
      "Ocean",
      "Missing word",
      "Blank",
      "Countries and capitals",
      "Pi",
      "Range",
      "Born",
      "Essay",
      "14",
      "Escapes: all of them",
      "HTML",
      "Markdown",
    ]);
    expect(item(result, "Capital of Peru").question?.tags).toEqual(["Capitals"]);
    expect(item(result, "Capital of Peru").question?.title).toBe("Capital of Peru");
  });

  it("multiple choice: the right option, per-answer feedback, general feedback as the explanation", () => {
    const q = question(item(result, "Capital of Peru"), "single_choice");
    expect(item(result, "Capital of Peru").entry.status).toBe("imported");
    expect(q.options.map((o) => [o.text, o.feedback])).toEqual([
      ["Lima", "Right, Lima."],
      ["Cusco", "Cusco was the Inca capital."],
      ["Arequipa", undefined],
    ]);
    expect(q.explanation).toBe("Lima has been the capital since 1535.");
    gradesLikeTheSource(q, "a", "b");
  });

  it("multiple answers: ±50% weights are the service's partial scoring exactly; 70/30/0 is rounded and says how", () => {
    const primes = question(item(result, "Primes"), "multiple_choice");
    expect(item(result, "Primes").entry).toMatchObject({ status: "imported", notes: [] });
    expect(primes).toMatchObject({ correct_option_ids: ["a", "b"], scoring: "partial" });
    expect(share(primes, ["a"])).toBe(0.5);
    expect(share(primes, ["a", "b", "c"])).toBe(0.5);
    gradesLikeTheSource(primes, ["a", "b"], ["a", "c"]);
    const rivers = item(result, "Rivers");
    expect(rivers.entry.status).toBe("approximated");
    expect(rivers.entry.notes[0]).toMatch(/rounded to equal shares.*"Rhine" 70%.*each of the 2 right options earns 50%/);
  });

  it("true/false with its wrong and right feedback", () => {
    const q = question(item(result, "Equator"), "true_false");
    expect(q).toMatchObject({
      correct: true,
      feedback: { correct: "Yes, through the Amazon region.", incorrect: "No, look at the map again." },
    });
    gradesLikeTheSource(q, true, false);
    gradesLikeTheSource(question(item(result, "Sun"), "true_false"), false, true);
  });

  it("short answer, and missing word as single choice or a blank", () => {
    const ocean = question(item(result, "Ocean"), "short_text");
    expect(ocean.accepted_answers).toEqual(["Atlantic", "the Atlantic Ocean"]);
    gradesLikeTheSource(ocean, "atlantic", "Pacific");
    const missing = question(item(result, "Missing word"), "single_choice");
    expect(missing.prompt).toBe("Mount Everest lies in the _____ mountain range.");
    gradesLikeTheSource(missing, "b", "a");
    const blank = question(item(result, "Blank"), "fill_in_blanks");
    expect(blank.text).toBe("The longest river in Africa is the {{a}} river.");
    gradesLikeTheSource(blank, { a: "Nile" }, { a: "Congo" });
  });

  it("matching with a distractor: partial credit per pair", () => {
    const q = question(item(result, "Countries and capitals"), "matching");
    expect(q.prompts.map((p) => p.text)).toEqual(["France", "Italy", "Spain"]);
    expect(q.choices.map((c) => c.text)).toEqual(["Paris", "Rome", "Madrid", "Lisbon"]);
    const id = (text: string) => q.choices.find((c) => c.text === text)?.id ?? "";
    gradesLikeTheSource(
      q,
      { a: id("Paris"), b: id("Rome"), c: id("Madrid") },
      { a: id("Lisbon"), b: id("Rome"), c: id("Madrid") },
    );
    expect(share(q, { a: id("Paris") })).toBeCloseTo(1 / 3, 6);
  });

  it("numerical: tolerance, a range, and several answers (the partial one named)", () => {
    const pi = question(item(result, "Pi"), "numeric");
    expect(pi).toMatchObject({ correct_value: 3.14, tolerance: 0.005 });
    gradesLikeTheSource(pi, 3.144, 3.2);
    expect(question(item(result, "Range"), "numeric")).toMatchObject({ correct_value: 3, tolerance: 2 });
    const born = item(result, "Born");
    expect(born.entry.status).toBe("approximated");
    expect(born.entry.notes).toEqual(["The answer 1889:2 gave 50% in the source; here it earns nothing."]);
    expect(question(born, "numeric")).toMatchObject({ correct_value: 1889, tolerance: 0, feedback: { correct: "Correct." } });
  });

  it("essay with general feedback; a description is skipped", () => {
    expect(question(item(result, "Essay"), "essay").explanation).toBe("A good answer mentions evaporation and rain.");
    expect(item(result, "14").entry).toEqual({
      source_id: "14",
      status: "skipped",
      notes: ["Skipped (line 62): a description without an answer."],
    });
  });

  it("escapes, [plain], [html] reduced to text (named) and [markdown] kept as text (named)", () => {
    const esc = question(item(result, "Escapes: all of them"), "single_choice");
    expect(esc.prompt).toBe("Which is right: 2 + 2 = 4 or {5}?");
    expect(esc.options.map((o) => o.text)).toEqual(["2 + 2 = 4", "{5}", "a ~ b"]);
    expect(item(result, "HTML").question?.prompt).toBe("Which word is bold?");
    expect(item(result, "HTML").entry.notes).toEqual(["HTML formatting was reduced to plain text."]);
    expect(item(result, "Markdown").entry.notes).toEqual(["Markdown is kept as plain text."]);
  });
});

describe("GIFT: malformed and foreign text", () => {
  it("a question with a brace missing is skipped with its line; the others are read", () => {
    const r = readQuestionBank(bytes("::A:: One {=x ~y\n\n::B:: Two {T}\n"), { format: "gift" });
    expect(r.items.map((i) => [i.entry.source_id, i.entry.status])).toEqual([
      ["A", "skipped"],
      ["B", "imported"],
    ]);
    expect(r.items[0]?.entry.notes).toEqual(['Skipped (line 1): malformed, a "{" or "}" is missing.']);
  });

  it("text without any answers in braces is unreadable as GIFT", () => {
    expect(() => readQuestionBank(bytes("Just some notes.\n\nNothing else."), { format: "gift" })).toThrowError(
      expect.objectContaining({ code: "unreadable_file" }) as unknown as InterchangeError,
    );
  });
});
