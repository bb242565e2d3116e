// Moved to test/support/item-fixtures.ts; this re-export serves suites that still import the old path.
export * from "./support/item-fixtures";
