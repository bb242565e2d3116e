// npm run deploy -- --env <env> [wrangler deploy's options]: `wrangler deploy`, refused while
// [env.<env>] of wrangler.toml holds a placeholder, a local-only value or a resource of another
// environment, or while the worker lacks a required secret (scripts/deploy-guard.ts names each one
// and where it is). Without --env (or CLOUDFLARE_ENV) it refuses too: the top level is local
// development only. npm run deploy:check -- --env <env> runs the checks alone (CI, before migrating).
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { readWranglerToml } from "./deploy-env";
import { findPlaceholders, formatFindings } from "./deploy-guard";
import { runWrangler } from "./wrangler";

/** --env / -e / --env=…, else CLOUDFLARE_ENV (which wrangler reads too). */
export function chosenEnvironment(argv: string[], processEnv: Record<string, string | undefined>): string | undefined {
  const { values } = parseArgs({ args: argv, options: { env: { type: "string", short: "e" } }, strict: false });
  const env = typeof values.env === "string" ? values.env : processEnv.CLOUDFLARE_ENV;
  return env === "" ? undefined : env;
}

/** The worker's secret names, or undefined (with the reason printed) when wrangler cannot list them. */
function workerSecrets(env: string): string[] | undefined {
  const result = runWrangler(["secret", "list", "--env", env, "--format", "json"], { stdio: "pipe", encoding: "utf8" });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status === 0) return (JSON.parse(String(result.stdout)) as { name: string }[]).map((s) => s.name);
  // A worker never deployed has no secrets yet.
  if (/not found|\[code: 10007\]/i.test(output)) return [];
  process.stderr.write(`could not list the worker's secrets, so they are not checked:\n${output.trim()}\n`);
  return undefined;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const checkOnly = argv.includes("--check");
  const wranglerArgs = argv.filter((a) => a !== "--check");
  const dryRun = wranglerArgs.includes("--dry-run");
  const env = chosenEnvironment(wranglerArgs, process.env);
  const toml = await readWranglerToml();
  // The file first: it needs no network. The secrets only once the file is right.
  let findings = findPlaceholders(toml, env, { processEnv: process.env });
  if (findings.length === 0 && env && !dryRun)
    findings = findPlaceholders(toml, env, { processEnv: process.env, secrets: workerSecrets(env) });
  if (findings.length > 0) {
    process.stderr.write(formatFindings(env, findings));
    if (!dryRun) {
      process.stderr.write("Nothing was deployed (docs/deploying.md).\n");
      return 1;
    }
    process.stderr.write("(--dry-run: building anyway; a deploy would be refused.)\n");
  }
  if (checkOnly) {
    process.stdout.write(`[env.${env}] is ready to deploy: no placeholder, its own resources, its secrets set\n`);
    return 0;
  }
  return runWrangler(["deploy", ...wranglerArgs]).status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(await main());
