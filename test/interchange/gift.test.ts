import { describe, expect, it } from "vitest";
import {
  type ImportedItem,
  type InterchangeError,
  type QuestionInput,
  type QuizQuestion,
  readQuestionBank,
} from "../../src/interchange";
import { bytes, GIFT } from "./fixtures";
import { gradesLikeTheSource, item, question, share } from "./helpers";
import { reimport, stored } from "./reimport";

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
    expect(q.prompts!.map((p) => p.text)).toEqual(["France", "Italy", "Spain"]);
    expect(q.choices!.map((c) => c.text)).toEqual(["Paris", "Rome", "Madrid", "Lisbon"]);
    const id = (text: string) => q.choices!.find((c) => c.text === text)?.id ?? "";
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

  it("escapes, [plain], [html] kept as HTML (CONTRACT §19) and [markdown] kept as text (named)", () => {
    const esc = question(item(result, "Escapes: all of them"), "single_choice");
    expect(esc.prompt).toBe("Which is right: 2 + 2 = 4 or {5}?");
    expect(esc.options.map((o) => o.text)).toEqual(["2 + 2 = 4", "{5}", "a ~ b"]);
    expect(item(result, "HTML").question).toMatchObject({ content_format: "html", prompt: "<p>Which word is <b>bold</b>?</p>" });
    expect(item(result, "HTML").entry).toMatchObject({ status: "imported", notes: [] });
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

describe("GIFT: an export reads back as it was written, here and in Moodle", () => {
  const gift = (q: QuizQuestion) => reimport("gift", [q]);
  const only = (q: QuizQuestion) => {
    const { file, result } = gift(q);
    expect(file.skipped).toEqual([]);
    expect(result.items.map((i) => i.entry.status)).toEqual(["imported"]);
    return { body: String(file.body), q: result.items[0]?.question as QuestionInput };
  };

  it("a wrong option written %100%Wrong stays wrong and keeps its text", () => {
    const original = stored({
      type: "single_choice",
      prompt: "Pick",
      options: [
        { id: "a", text: "Right" },
        { id: "b", text: "%100%Wrong" },
        { id: "c", text: "%50%Half" },
      ],
      correct_option_id: "a",
    });
    const { body, q } = only(original);
    // Moodle reads a weight after "~" (its regex takes %100%, %50%): the explicit %0% keeps the text as text.
    expect(body).toContain("~%0%%100%Wrong");
    expect(q).toMatchObject({
      correct_option_id: "a",
      options: [{ text: "Right" }, { text: "%100%Wrong" }, { text: "%50%Half" }],
    });
  });

  it('a right option\'s %weight% is text after "=", as Moodle reads it', () => {
    const r = readQuestionBank(bytes("Pick {=%50%a ~b}"), { format: "gift" });
    expect(question(r.items[0] as ImportedItem, "single_choice").options.map((o) => o.text)).toEqual(["%50%a", "b"]);
  });

  it("an accepted answer %50%secret stays an accepted answer", () => {
    const { body, q } = only(
      stored({ type: "short_text", prompt: "Say", accepted_answers: ["%50%secret", "open"], case_sensitive: false }),
    );
    expect(body).toContain("=%100%%50%secret");
    expect(q).toMatchObject({ accepted_answers: ["%50%secret", "open"] });
  });

  it("a leading [html] or [markdown] is text, wherever Moodle would take it as a format", () => {
    const { q } = only(
      stored({
        type: "single_choice",
        prompt: "[html]<b>Prompt</b>",
        options: [
          { id: "a", text: "[html]<b>a</b>", feedback: "[markdown]**fb**" },
          { id: "b", text: "[plain]b" },
        ],
        correct_option_id: "b",
        explanation: "[html]<i>why</i>",
      }),
    );
    expect(q).toMatchObject({
      prompt: "[html]<b>Prompt</b>",
      explanation: "[html]<i>why</i>",
      options: [{ text: "[html]<b>a</b>", feedback: "[markdown]**fb**" }, { text: "[plain]b" }],
    });
    const m = only(
      stored({
        type: "matching",
        prompt: "Match",
        prompts: [{ id: "a", text: "[html]<b>x</b>" }],
        choices: [
          { id: "k", text: "[html]<b>y</b>" },
          { id: "l", text: "[markdown]z" },
        ],
        correct_matches: { a: "k" },
        scoring: "partial",
      }),
    ).q;
    expect(m).toMatchObject({
      prompts: [{ text: "[html]<b>x</b>" }],
      choices: [{ text: "[html]<b>y</b>" }, { text: "[markdown]z" }],
    });
  });

  it('"->" in a matching choice or a one-answer short answer stays text; in a prompt or among several answers the question is left out', () => {
    const matching = (prompt: string) =>
      stored({
        type: "matching",
        prompt: "Match",
        prompts: [{ id: "a", text: prompt }],
        choices: [{ id: "k", text: "b -> c" }],
        correct_matches: { a: "k" },
        scoring: "partial",
      });
    expect(only(matching("a")).q).toMatchObject({ prompts: [{ text: "a" }], choices: [{ text: "b -> c" }] });
    expect(gift(matching("a -> b")).file.skipped).toEqual(["qst_1"]);
    const short = (answers: string[], correct?: string) =>
      stored({ type: "short_text", prompt: "Say", accepted_answers: answers, case_sensitive: false, feedback: { correct } });
    expect(only(short(["a->b"], "yes -> right")).q).toMatchObject({
      accepted_answers: ["a->b"],
      feedback: { correct: "yes -> right" },
    });
    expect(gift(short(["a->b", "c"])).file.skipped).toEqual(["qst_1"]);
    expect(gift(short(["a", "c"], "x->y")).file.skipped).toEqual(["qst_1"]);
    const blank = stored({
      type: "fill_in_blanks",
      prompt: "Fill",
      text: "x -> {{a}} -> y",
      blanks: [{ id: "a", accepted_answers: ["p->q"], case_sensitive: false }],
      scoring: "partial",
    });
    expect(only(blank).q).toMatchObject({
      text: "x -> {{a}} -> y",
      blanks: [{ accepted_answers: ["p->q"] }],
    });
  });

  it("a lone CR neither splits the question nor makes // [tag:…] or $CATEGORY: lines; it reads back as a line break", () => {
    const original = stored({
      type: "true_false",
      prompt: "One\r// [tag:injected]\r\r$CATEGORY: $course$/top/Injected\rTwo\r\nThree",
      correct: true,
      tags: ["kept"],
    });
    const { q } = only(original);
    expect(q).toMatchObject({ prompt: "One\n// [tag:injected]\n\n$CATEGORY: $course$/top/Injected\nTwo\nThree", tags: ["kept"] });
  });

  it("backslashes, escapes' own characters, private-use characters and tags with ] keep their text", () => {
    const text = "a\\b \\n \\: ~=#{}: \ue001\ue007\ue008 \\";
    const { q } = only(
      stored({
        type: "short_text",
        title: `::${text}::`,
        prompt: text,
        accepted_answers: [text],
        case_sensitive: false,
        tags: ["x]y", "[tag:z]", "ends\\"],
      }),
    );
    expect(q).toMatchObject({ title: `::${text}::`, prompt: text, accepted_answers: [text] });
    expect(new Set(q.tags)).toEqual(new Set(["x]y", "[tag:z]", "ends\\"]));
  });

  it('"*" in a short answer is a star, not Moodle\'s wildcard: written \\*, read back as "*"', () => {
    const { body, q } = only(stored({ type: "short_text", prompt: "Say", accepted_answers: ["a*b"], case_sensitive: false }));
    expect(body).toContain("=a\\\\*b");
    expect(q).toMatchObject({ accepted_answers: ["a*b"] });
    const wild = readQuestionBank(bytes("Say {=a*b}"), { format: "gift" }).items[0];
    expect(wild?.entry.notes).toEqual(['The wildcard "*" in an answer is matched literally here.']);
  });

  it("a fill-in text keeps its lines, spaces and NBSP around the blank, and the prompt ends where it ended", () => {
    const original = stored({
      type: "fill_in_blanks",
      prompt: "First line\nsecond line",
      text: "Line one\nthe\u00a0{{a}}\u00a0and  [html]<b>x</b>",
      blanks: [{ id: "a", accepted_answers: ["blank"], case_sensitive: false }],
      scoring: "partial",
    });
    expect(only(original).q).toMatchObject({
      prompt: "First line\nsecond line",
      text: "Line one\nthe\u00a0{{a}}\u00a0and  [html]<b>x</b>",
    });
    const comment = stored({ ...original, text: "// [tag:x] {{a}} after" } as QuizQuestion);
    expect(gift(comment).file.skipped).toEqual(["qst_1"]);
  });
});
