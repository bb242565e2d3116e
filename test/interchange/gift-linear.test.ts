import { describe, expect, it } from "vitest";
import { readQuestionBank } from "../../src/interchange";
import { bytes } from "./fixtures";

/**
 * GIFT's and Cloze's scans are linear: each hostile input is read at 16, 32, 64 and 128 KiB, and
 * its time grows as that of a matched plain input does (the same reader's path and strings, without
 * what the old patterns choked on), about 2× a doubling. The engine's own cost steps where a
 * string outgrows its regular heap (about 3.5× in one doubling, for any file), which the matched
 * input shares; so the bound is on the hostile input's growth from 16 to 128 KiB divided by the
 * plain one's: at most 2.5. Linear code measured about 1; quadratic code grows 8× more over three
 * doublings (the patterns these scans replaced took 2.7 s to 22 s at 128 KiB, which is not waited
 * for). Least CPU times of several rounds, sizes and inputs in turns, after a warm-up; never
 * wall-clock limits.
 */
const SIZES = [16, 32, 64, 128].map((k) => k * 1024);
const ROUNDS = 7;
const MAX_RELATIVE_GROWTH = 2.5;
/** A reading this slow is already far off linear: the rest is not waited for. */
const GIVE_UP_MS = 2_000;

type Format = "gift" | "moodle_xml";

/**
 * The CPU time of reading `file` as `format` `reps` times over, in ms; refusals count as reading.
 * CPU time, not the clock: on a machine shared with other work, time spent waiting for a core is
 * not the reader's.
 */
function timeOf(file: Uint8Array, format: Format, reps: number): number {
  const start = process.cpuUsage();
  for (let r = 0; r < reps; r++) {
    try {
      readQuestionBank(file, { format });
    } catch {
      // An unreadable file is an answer too; only the time counts here.
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Enough repetitions for the smallest input to take ~2 ms: the timer's grain then decides no ratio. */
function repetitions(file: Uint8Array, format: Format): number {
  let reps = 1;
  while (reps < 64 && Math.min(timeOf(file, format, reps), timeOf(file, format, reps)) < 2) reps *= 2;
  return reps;
}

/** The least time of reading each input at each size, in rounds over inputs and sizes (the calibration is the warm-up). */
function leastTimes(makers: ((size: number) => string)[], format: Format): number[][] {
  const files = makers.map((make) => SIZES.map((size) => bytes(make(size))));
  const reps = repetitions(files[0]?.[0] as Uint8Array, format);
  const least = files.map(() => SIZES.map(() => Number.POSITIVE_INFINITY));
  for (let round = 0; round < ROUNDS; round++)
    for (const [m, sizes] of files.entries())
      for (const [i, file] of sizes.entries()) {
        const t = timeOf(file, format, reps);
        const row = least[m] as number[];
        row[i] = Math.min(row[i] ?? t, t);
        if (t > GIVE_UP_MS) throw new Error(`reading ${(SIZES[i] ?? 0) / 1024} KiB took ${Math.round(t)} ms: far off linear`);
      }
  return least;
}

const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

const cloze = (text: string) =>
  `<quiz><question type="cloze"><name><text>C</text></name><questiontext format="plain_text"><text>${text}</text></questiontext></question></quiz>`;

/** Each hostile input and its plain match. */
const HOSTILE: [string, (size: number) => string, (size: number) => string, Format][] = [
  // A numeric answer with many ".." before an escaped line break (the old /^(.+?)\.\.(.+)$/).
  [
    "a numeric range of dots before a line break",
    (n) => `::N:: Q {#1${fill("..", n)}\\n2}\n`,
    (n) => `::N:: Q {#1${fill("a", n)}\\n2}\n`,
    "gift",
  ],
  // Many ":" before a line break (the old /^(.+?):(.+)$/).
  [
    "a numeric answer of colons before a line break",
    (n) => `::N:: Q {#1${fill(":", n)}\\n2}\n`,
    (n) => `::N:: Q {#1${fill("a", n)}\\n2}\n`,
    "gift",
  ],
  // A comment of "[tag:" never closed (the old /\[tag:([^\]]+)\]/g).
  [
    "a comment of unclosed [tag:",
    (n) => `// ${fill("[tag:", n)}\n::T:: Q {T}\n`,
    (n) => `// ${fill("[tog:", n)}\n::T:: Q {T}\n`,
    "gift",
  ],
  [
    "a comment of unclosed [tag: with \\] escapes",
    (n) => `// ${fill("[tag:\\]", n)}\n::T:: Q {T}\n`,
    (n) => `// [tag:${fill("[tog:\\]", n)}]\n::T:: Q {T}\n`,
    "gift",
  ],
  // Embedded-answer openings that nothing closes (the old /\{(\d*):([A-Z_]+):((?:\\.|[^\\}])*)\}/g).
  [
    "a Cloze text of unclosed {1:SA:",
    (n) => cloze(fill("{1:SA:", n)),
    (n) => cloze(`{1:SA:=${fill("{1-SA-", n)}}`),
    "moodle_xml",
  ],
];

describe("GIFT and Cloze reading time grows linearly with hostile input", () => {
  it.each(HOSTILE)(
    "%s: as a plain input of its size, ~2× a doubling",
    (_, hostile, plain, format) => {
      const [h = [], p = []] = leastTimes([hostile, plain], format);
      const shown = SIZES.map((s, i) => `${s / 1024} KiB ${h[i]?.toFixed(2)} ms (plain ${p[i]?.toFixed(2)} ms)`).join(", ");
      const growth = (t: number[]) => (t[3] ?? Number.POSITIVE_INFINITY) / (t[0] ?? 1);
      expect(growth(h) / growth(p), shown).toBeLessThanOrEqual(MAX_RELATIVE_GROWTH);
    },
    120_000,
  );
});
