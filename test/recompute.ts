// Moved to test/support/recompute.ts; this re-export serves suites that still import the old path.
export * from "./support/recompute";
