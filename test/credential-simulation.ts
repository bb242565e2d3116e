// Moved to test/support/credential-simulation.ts; this re-export serves suites that still import the old path.
export * from "./support/credential-simulation";
