import { describe, expect, it } from "vitest";
import { InterchangeError, readQuestionBank, recogniseFormat } from "../../src/interchange";
import { DOUBLINGS, expectGrowthAtMost, GROWTH_TEST_TIMEOUT_MS } from "../support/growth";
import { type HostileFile, READING, RECOGNITION, repeatedReferences } from "./hostile-inputs";

/**
 * No input makes parsing super-linear (docs/security.md, "Parsing has a budget"): each hostile
 * file of 16, 32, 64 and 128 KiB is recognised or read with its documented outcome, and its time
 * grows at most linearly with its size (test/support/growth.ts: ratios of times measured in the
 * same run, never a wall-clock limit).
 */

/** What a call ended with: its value, or the refusal's code. */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (error instanceof InterchangeError) return error.code;
    throw error;
  }
}

const recognise = (c: HostileFile, data: Uint8Array) => outcome(() => recogniseFormat(data, c.mediaType));
const read = (c: HostileFile, data: Uint8Array) => {
  const result = outcome(() => readQuestionBank(data, { format: c.format, mediaType: c.mediaType }));
  return typeof result === "string" ? result : "read";
};

describe("recognising a format (the request) is linear in the file", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  it.each(RECOGNITION.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const data = c.file(size);
        expect(recognise(c, data), `${size} bytes`).toBe(c.expect);
        return () => recognise(c, data);
      },
    });
  });
});

describe("reading a file (the job) is linear in the file", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  it.each(READING.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expectGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const data = c.file(size);
        expect(read(c, data), `${size} bytes`).toBe(c.expect);
        return () => read(c, data);
      },
    });
  });
});

describe("references to one QTI item do not multiply the work", { timeout: GROWTH_TEST_TIMEOUT_MS }, () => {
  it("a test referring 10, 100 and 1 000 times to an item with a 1 000-term sum: each read in about the time of one", () => {
    expectGrowthAtMost({
      sizes: [10, 100, 1000],
      // Ten times the references may cost at most 3×, a hundred times 6×: the item is read once.
      perStep: 2,
      make: (references) => {
        const data = repeatedReferences(references);
        expect(data.length).toBeLessThan(1500);
        const result = readQuestionBank(data);
        expect(result.items).toHaveLength(references);
        expect(result.items.every((i) => i.entry.status === "imported")).toBe(true);
        return () => readQuestionBank(data);
      },
    });
  });
});
