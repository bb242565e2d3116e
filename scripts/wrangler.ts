// Runs the project's wrangler quietly and offline-safe: no metrics, no update banner, no
// Request.cf download (each would otherwise wait for the network).
import { type SpawnSyncOptions, spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";

export const QUIET_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

const wranglerBin = () => createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");

export function runWrangler(args: string[], options: SpawnSyncOptions = {}) {
  return spawnSync(process.execPath, [wranglerBin(), ...args], {
    stdio: "inherit",
    ...options,
    env: { ...process.env, ...QUIET_WRANGLER_ENV, ...options.env },
  });
}

export function spawnWrangler(args: string[]) {
  return spawn(process.execPath, [wranglerBin(), ...args], {
    stdio: "inherit",
    env: { ...process.env, ...QUIET_WRANGLER_ENV },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(runWrangler(process.argv.slice(2)).status ?? 1);
}
