import { expect } from "vitest";

/**
 * How a cost grows as its input grows, judged by ratios of times measured in the same run and
 * never by a wall-clock limit (docs/testing.md). Each size is warmed up, then timed as batches of
 * runs (a batch lasts at least 20 ms at the smallest size, so a sample is large enough to time),
 * and the fastest of several batches counts: load on a shared machine only ever adds time, so the
 * fastest is the closest to the work itself. In Node the time is the process's CPU time, which
 * other processes on the machine do not lengthen; elsewhere (workerd) the clock's.
 *
 * Linear work about doubles per doubling of the input, quadratic work quadruples. The bound is
 * on the growth from the smallest size: after k steps at most `slack` × `perStep`^k — for
 * doublings 1.5 × 2.5^k, that is 3.75×, 9.4× and 23× at 32, 64 and 128 KiB against 16 KiB, where
 * linear work takes 2×, 4× and 8× and quadratic work 4×, 16× and 64× — so a linear reader passes
 * even when a pause of the runtime (a collection, a string too large for V8's young generation)
 * lands on one size, and a quadratic one fails by 64 KiB at the latest, in seconds rather than at
 * its largest input.
 */
export interface GrowthCase {
  /** The input sizes, smallest first, each the same multiple of the one before. */
  sizes: number[];
  /** Builds the input of a size (not timed) and returns the work to time. */
  make: (size: number) => () => unknown;
  /** The growth allowed per step of the sizes, compounded from the first (2.5 for doublings). */
  perStep: number;
  /** A factor on top, for noise (1.5). */
  slack?: number;
  /** How many batches are timed per size. */
  samples?: number;
}

const MIN_BATCH_MS = 20;

const node = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
const cpu = node?.cpuUsage?.bind(node);
/** Milliseconds of this process's CPU where Node tells them, else of the clock. */
const now = cpu
  ? () => {
      const { user, system } = cpu();
      return (user + system) / 1000;
    }
  : () => performance.now();

function fastestBatch(work: () => unknown, batch: number, samples: number): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let s = 0; s < samples; s++) {
    const started = now();
    for (let b = 0; b < batch; b++) work();
    fastest = Math.min(fastest, now() - started);
  }
  return fastest;
}

/** Checks the growth and returns the time of one batch per size, in ms. */
export function expectGrowthAtMost({ sizes, make, perStep, slack = 1.5, samples = 5 }: GrowthCase): number[] {
  const times: number[] = [];
  let batch = 1;
  for (const [i, size] of sizes.entries()) {
    const work = make(size);
    // Warm up at each size (a larger input may take other paths through the engine's tiers) for
    // at least two batches' time; one run is enough when a run alone takes that long.
    const warming = now();
    do work();
    while (now() - warming < 2 * MIN_BATCH_MS);
    if (i === 0) {
      // As many runs per batch as make MIN_BATCH_MS at the smallest size; the same count at every size.
      const started = now();
      let runs = 0;
      while (now() - started < MIN_BATCH_MS && runs < 10_000) {
        work();
        runs++;
      }
      batch = runs;
    }
    // A long batch is timed fewer times: its noise is small beside it.
    const time = fastestBatch(work, batch, times.length > 0 && (times[i - 1] as number) * 4 > 2_000 ? 2 : samples);
    times.push(time);
    const growth = time / (times[0] as number);
    expect(
      growth,
      `from ${sizes[0]} to ${size}: ${(times[0] as number).toFixed(2)} ms → ${time.toFixed(2)} ms per batch of ${batch} (${times.map((t) => t.toFixed(2)).join(", ")})`,
    ).toBeLessThanOrEqual(i === 0 ? 1 : slack * perStep ** i);
  }
  return times;
}

/**
 * The same judgement for work that waits (a request through the worker), timed by the clock:
 * a few runs per size, the fastest counting. workerd's clock moves in steps of milliseconds and
 * a request has fixed costs (its I/O), so the smallest size counts as at least 10 ms: linear work
 * then stays near 1×, and quadratic work (0.4 s at 16 KiB, 1.5 s at 32 KiB before the fix) still
 * quadruples.
 */
export async function expectRequestGrowthAtMost({
  sizes,
  make,
  perStep,
  slack = 1.5,
  samples = 5,
}: Omit<GrowthCase, "make"> & { make: (size: number) => () => Promise<unknown> }): Promise<number[]> {
  const times: number[] = [];
  for (const [i, size] of sizes.entries()) {
    const work = make(size);
    await work();
    let fastest = Number.POSITIVE_INFINITY;
    for (let s = 0; s < samples; s++) {
      const started = performance.now();
      await work();
      fastest = Math.min(fastest, performance.now() - started);
    }
    times.push(fastest);
    expect(
      fastest / Math.max(times[0] as number, 10),
      `from ${sizes[0]} to ${size}: ${times.map((t) => t.toFixed(1)).join(" ms, ")} ms`,
    ).toBeLessThanOrEqual(i === 0 ? 1 : slack * perStep ** i);
  }
  return times;
}

/** A doubling test's own time limit: it times many runs, and a loaded machine stretches them. */
export const GROWTH_TEST_TIMEOUT_MS = 60_000;

/** 16, 32, 64 and 128 KiB. */
export const DOUBLINGS = [16, 32, 64, 128].map((k) => k * 1024);
