// Moved to test/support/item-analysis-reference.ts; this re-export serves suites that still import the old path.
export * from "./support/item-analysis-reference";
