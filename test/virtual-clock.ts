// Moved to test/support/virtual-clock.ts; this re-export serves suites that still import the old path.
export * from "./support/virtual-clock";
