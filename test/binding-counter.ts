// Moved to test/support/binding-counter.ts; this re-export serves suites that still import the old path.
export * from "./support/binding-counter";
