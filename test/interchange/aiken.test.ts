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
});
