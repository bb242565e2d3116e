// Moved to test/support/webhook-helpers.ts; this re-export serves suites that still import the old path.
export * from "./support/webhook-helpers";
