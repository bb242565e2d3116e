export type Random = () => number;

/**
 * mulberry32: a small, fast, seeded generator — good enough to vary demo, soak and bench data,
 * and deterministic, so a run with the same seed makes the same data. Not for secrets.
 */
export function seededRandom(seed: number): Random {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
