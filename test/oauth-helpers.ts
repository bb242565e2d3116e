// Moved to test/support/oauth-helpers.ts; this re-export serves suites that still import the old path.
export * from "./support/oauth-helpers";
