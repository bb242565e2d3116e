import { describe, expect, it } from "vitest";
import { type ReportEntry, readQuestionBank } from "../../src/interchange";
import { AIKEN, bytes } from "./fixtures";
import { gradesLikeTheSource, question } from "./helpers";

describe("Aiken", () => {
  const result = readQuestionBank(bytes(AIKEN.capitals), { format: "aiken" });

  it("reads single-choice questions and skips each malformed block with the line it starts on", () => {
    expect(result.items.map((i) => i.entry)).toEqual<ReportEntry[]>([
      { source_id: "1", status: "imported", type: "single_choice", notes: [] },
      {
        source_id: "2",
        status: "skipped",
        type: "single_choice",
        notes: ['Skipped (line 8): the answer "E" is not one of the options.'],
      },
      {
        source_id: "3",
        status: "skipped",
        type: "single_choice",
        notes: ["Skipped (line 13): no ANSWER line after its options."],
      },
      { source_id: "4", status: "imported", type: "single_choice", notes: [] },
    ]);
  });

  it("the answer letter is the correct option", () => {
    const first = question(result.items[0]!, "single_choice");
    expect(first.options.map((o) => o.text)).toEqual(["Sydney", "Canberra", "Melbourne", "Perth"]);
    gradesLikeTheSource(first, "b", "a");
    gradesLikeTheSource(question(result.items[3]!, "single_choice"), "a", "c");
  });

  it("reads like Moodle's importer: options may follow their letter without a space, and every skipped block names its line", () => {
    // The shapes of Moodle's own test of its Aiken importer (question/format/aiken/tests), in our words.
    const text = [
      "Only one option?", // line 1
      "A) The only one",
      "ANSWER: A",
      "",
      "A) An option before any question", // line 5
      "",
      "ANSWER: Nothing to answer", // line 7
      "",
      "Which is a primary colour?", // line 9
      "A) Red",
      "B) Green-blue",
      "ANSWER: A",
      "",
      "Started but never answered", // line 14
      "A) One",
      "B) Two",
      "",
      "Written without spaces", // line 18
      "A)Wrong (no space)",
      "B.Right (no space)",
      "ANSWER: B",
    ].join("\n");
    const read = readQuestionBank(bytes(text), { format: "aiken" });
    expect(read.items.map((i) => [i.entry.status, i.entry.notes])).toEqual([
      ["skipped", ["Skipped (line 1): fewer than 2 options."]],
      ["skipped", ["Skipped (line 5): an ANSWER line without options before it."]],
      ["imported", []],
      ["skipped", ["Skipped (line 14): no ANSWER line after its options."]],
      ["imported", []],
    ]);
    const spaced = question(read.items[4]!, "single_choice");
    expect(spaced).toMatchObject({ prompt: "Written without spaces", correct_option_id: "b" });
    expect(spaced.options.map((o) => o.text)).toEqual(["Wrong (no space)", "Right (no space)"]);
  });
});
