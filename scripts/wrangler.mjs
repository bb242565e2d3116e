#!/usr/bin/env node
// Runs the project's wrangler with the environment that keeps it quiet and offline-safe:
// no metrics, no update banner, no Request.cf download (each would wait for the network).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

export const QUIET_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

export function wranglerBin() {
  return createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
}

export function runWrangler(args, options = {}) {
  return spawnSync(process.execPath, [wranglerBin(), ...args], {
    stdio: "inherit",
    ...options,
    env: { ...process.env, ...QUIET_WRANGLER_ENV, ...options.env },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = runWrangler(process.argv.slice(2));
  process.exit(result.status ?? 1);
}
