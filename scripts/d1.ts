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

/** Runs SQL against the project's D1: local state under .wrangler/, or the deployed database. */
export function executeD1(sql: string, target: Target): unknown[] {
  const out = run(["d1", "execute", "DB", `--${target}`, "--json", "--command", sql], "wrangler d1 execute");
  const parsed = JSON.parse(out) as { results?: unknown[] }[];
  return parsed.flatMap((r) => r.results ?? []);
}

/** Applies pending migrations from drizzle/. */
export function migrate(target: Target): void {
  run(["d1", "migrations", "apply", "DB", `--${target}`], "wrangler d1 migrations apply");
}
