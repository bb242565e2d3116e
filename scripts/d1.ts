import { runWrangler } from "./wrangler";

export type Target = "local" | "remote";

/** Quotes a value as an SQLite literal. */
export function literal(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

function run(args: string[], what: string): string {
  // CI=true makes wrangler answer its own confirmation prompts.
  const result = runWrangler(args, { stdio: "pipe", encoding: "utf8", env: { CI: "true" } });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    throw new Error(`${what} failed (exit ${result.status})`);
  }
  return String(result.stdout);
}

/** `--persist-to DIR` for a local database kept elsewhere than wrangler's default (.wrangler/state). */
const persistArgs = (target: Target, persistTo: string | undefined) =>
  target === "local" && persistTo !== undefined ? ["--persist-to", persistTo] : [];

/**
 * Runs SQL against the project's D1: local state (under .wrangler/state, or `persistTo`), or the
 * deployed database.
 */
export function executeD1(sql: string, target: Target, persistTo?: string): unknown[] {
  const out = run(
    ["d1", "execute", "DB", `--${target}`, ...persistArgs(target, persistTo), "--json", "--command", sql],
    "wrangler d1 execute",
  );
  const parsed = JSON.parse(out) as { results?: unknown[] }[];
  return parsed.flatMap((r) => r.results ?? []);
}

/** Applies pending migrations from drizzle/. */
export function migrate(target: Target, persistTo?: string): void {
  run(["d1", "migrations", "apply", "DB", `--${target}`, ...persistArgs(target, persistTo)], "wrangler d1 migrations apply");
}
