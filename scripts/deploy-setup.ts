// npm run deploy:setup -- --env <env> [--dry-run]: creates what [env.<env>] of wrangler.toml names,
// with wrangler, printing each command: its D1 databases and KV namespaces (those whose id is still
// a placeholder), every queue it produces to, consumes or dead-letters into, its R2 buckets, and
// the WEBHOOK_SECRET_KEY secret when the worker has none. The ids wrangler prints are written into
// the environment's lines of wrangler.toml, comments and layout kept. --dry-run prints the commands
// and changes nothing. Run again after a failure: what has an id is skipped, what exists is kept.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { environmentResources, isPlaceholderId, readWranglerToml, setTableValue, type WranglerToml } from "./deploy-env";
import { findPlaceholders, formatFindings, REQUIRED_SECRETS } from "./deploy-guard";
import { runWrangler } from "./wrangler";

interface CreatedId {
  table: string;
  binding: string;
  key: "database_id" | "id";
  /** How to find the id of one that already exists. */
  lookup: string[];
  kind: "d1" | "kv";
}

export interface SetupStep {
  /** wrangler's arguments. */
  args: string[];
  /** What it creates and why the environment needs it. */
  what: string;
  /** Where the id it prints goes, for a resource that has one. */
  id?: CreatedId;
}

export interface SetupPlan {
  steps: SetupStep[];
  /** Resources already set up (an id that is no placeholder), with the reason. */
  skipped: string[];
}

/**
 * KV namespaces are titled `<env>-<name>` by wrangler when --env is given: `<top-level name>-<binding>`
 * makes "staging-quiz-api-kv".
 */
const kvNamespaceName = (toml: WranglerToml, binding: string) => `${toml.raw.name ?? "worker"}-${binding.toLowerCase()}`;

/** The wrangler commands that create [env.<env>]'s resources, in order: databases, namespaces, queues, buckets. */
export function setupPlan(toml: WranglerToml, env: string): SetupPlan {
  const resources = environmentResources(toml.raw, env);
  const steps: SetupStep[] = [];
  const skipped: string[] = [];
  const flag = ["--env", env];
  for (const db of resources.d1) {
    if (!isPlaceholderId(db.id)) skipped.push(`D1 database ${db.name} (${db.binding}): has the id ${db.id}`);
    else
      steps.push({
        args: ["d1", "create", db.name, ...flag],
        what: `D1 database ${db.name}, bound as ${db.binding}`,
        id: {
          table: `env.${env}.d1_databases`,
          binding: db.binding,
          key: "database_id",
          lookup: ["d1", "info", db.name, "--json", ...flag],
          kind: "d1",
        },
      });
  }
  for (const kv of resources.kv) {
    if (!isPlaceholderId(kv.id)) skipped.push(`KV namespace ${kv.binding}: has the id ${kv.id}`);
    else
      steps.push({
        args: ["kv", "namespace", "create", kvNamespaceName(toml, kv.binding), ...flag],
        what: `KV namespace "${env}-${kvNamespaceName(toml, kv.binding)}", bound as ${kv.binding}`,
        id: {
          table: `env.${env}.kv_namespaces`,
          binding: kv.binding,
          key: "id",
          lookup: ["kv", "namespace", "list", ...flag],
          kind: "kv",
        },
      });
  }
  for (const queue of resources.queues)
    steps.push({ args: ["queues", "create", queue.name, ...flag], what: `queue ${queue.name}: ${queue.uses.join(", ")}` });
  for (const bucket of resources.r2)
    steps.push({
      args: [
        "r2",
        "bucket",
        "create",
        bucket.name,
        ...(bucket.jurisdiction ? ["--jurisdiction", bucket.jurisdiction] : []),
        ...flag,
      ],
      what: `R2 bucket ${bucket.name}, bound as ${bucket.binding}`,
    });
  return { steps, skipped };
}

// wrangler's output: colours stripped, then the id read from the snippet it prints in TOML
// (`database_id = "…"`) or JSON (`"database_id": "…"`); failing that, the one id of that shape in it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences are what is removed.
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, "");
const SHAPES = {
  d1: { key: "database_id", id: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" },
  kv: { key: "id", id: "[0-9a-f]{32}" },
} as const;

/** The id in what `wrangler d1 create` / `wrangler kv namespace create` printed; undefined if none is certain. */
export function parseCreatedId(kind: "d1" | "kv", output: string): string | undefined {
  const text = plain(output);
  const { key, id } = SHAPES[kind];
  const named = new RegExp(`(?<![A-Za-z0-9_])"?${key}"?\\s*[=:]\\s*"(${id})"`, "i").exec(text);
  if (named?.[1]) return named[1].toLowerCase();
  const any = [...new Set([...text.matchAll(new RegExp(`(?<![0-9a-f-])(${id})(?![0-9a-f-])`, "gi"))].map((m) => m[1]))];
  return any.length === 1 ? any[0]?.toLowerCase() : undefined;
}

/** The id of an existing resource, from `wrangler d1 info --json` or `wrangler kv namespace list`. */
export function parseExistingId(kind: "d1" | "kv", output: string, title: string): string | undefined {
  try {
    const json = JSON.parse(plain(output).slice(plain(output).search(/[[{]/))) as unknown;
    if (kind === "d1") return (json as { uuid?: string }).uuid;
    return (json as { id: string; title: string }[]).find((ns) => ns.title === title)?.id;
  } catch {
    return undefined;
  }
}

const alreadyExists = (output: string) => /already (exists|taken|in use)|name is taken/i.test(plain(output));
const workerMissing = (output: string) => /not found|does not exist|\[code: 10007\]/i.test(plain(output));

export interface WranglerRun {
  status: number;
  output: string;
}
export type Wrangler = (args: string[], input?: string) => WranglerRun;

const command = (args: string[]) => `npx wrangler ${args.join(" ")}`;

export interface SetupOptions {
  dryRun: boolean;
  wrangler: Wrangler;
  /** Writes wrangler.toml's new text. */
  write: (text: string) => void;
  print: (line: string) => void;
}

/** The secret's steps: listed, then put (a random key on stdin) only if absent. */
function secretSteps(env: string, options: SetupOptions): boolean {
  const list = ["secret", "list", "--env", env, "--format", "json"];
  for (const secret of REQUIRED_SECRETS) {
    const put = ["secret", "put", secret, "--env", env];
    if (options.dryRun) {
      options.print(`$ ${command(list)}`);
      options.print(`$ ${command(put)}    # only if the worker has no ${secret}: 32 random bytes, base64, on stdin`);
      continue;
    }
    options.print(`$ ${command(list)}`);
    const listed = options.wrangler(list);
    let names: string[] = [];
    if (listed.status === 0) names = (JSON.parse(plain(listed.output)) as { name: string }[]).map((s) => s.name);
    else if (!workerMissing(listed.output)) {
      options.print(`${listed.output.trim()}\n  could not list the secrets: set ${secret} yourself (${command(put)})`);
      return false;
    }
    if (names.includes(secret)) {
      options.print(`  ${secret} is set: kept (changing it would make every webhook endpoint's secret unusable)`);
      continue;
    }
    options.print(`$ ${command(put)}    # 32 random bytes, base64, on stdin`);
    const result = options.wrangler(put, randomBytes(32).toString("base64"));
    if (result.status !== 0) {
      options.print(result.output.trim());
      return false;
    }
  }
  return true;
}

/** Runs (or, dry, prints) the plan; returns whether everything is in place. */
export function runSetup(toml: WranglerToml, env: string, options: SetupOptions): boolean {
  const plan = setupPlan(toml, env);
  let text = toml.text;
  for (const line of plan.skipped) options.print(`  skipped: ${line}`);
  for (const step of plan.steps) {
    options.print(`$ ${command(step.args)}    # ${step.what}`);
    if (options.dryRun) continue;
    const result = options.wrangler(step.args);
    const output = result.output.trim();
    if (output) options.print(output.replace(/^/gm, "  | "));
    let id = result.status === 0 && step.id ? parseCreatedId(step.id.kind, result.output) : undefined;
    if (result.status !== 0) {
      if (!alreadyExists(result.output)) return false;
      options.print("  it exists already: kept");
      if (step.id) {
        options.print(`$ ${command(step.id.lookup)}`);
        const title = step.id.kind === "kv" ? `${env}-${step.args[3]}` : "";
        id = parseExistingId(step.id.kind, options.wrangler(step.id.lookup).output, title);
      }
    }
    if (step.id) {
      if (!id) {
        options.print(`  no id found in wrangler's output: write it as ${step.id.key} of [[${step.id.table}]] by hand`);
        return false;
      }
      text = setTableValue(text, step.id.table, { key: "binding", value: step.id.binding }, step.id.key, id);
      options.write(text);
      options.print(`  wrote ${step.id.key} = "${id}" into [[${step.id.table}]] (binding ${step.id.binding})`);
    }
  }
  return secretSteps(env, options);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { env: { type: "string", short: "e" }, "dry-run": { type: "boolean", default: false } },
  });
  const env = values.env ?? (process.env.CLOUDFLARE_ENV || undefined);
  const toml = await readWranglerToml();
  if (!env || !toml.raw.env?.[env]) {
    const known = Object.keys(toml.raw.env ?? {}).join(", ");
    process.stderr.write(`usage: npm run deploy:setup -- --env <${known}> [--dry-run]\n`);
    return 2;
  }
  const dryRun = values["dry-run"] ?? false;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(
    dryRun
      ? `[env.${env}]: the commands that set it up (dry run: nothing is created, wrangler.toml is not changed)`
      : `[env.${env}]: setting up its resources with wrangler`,
  );
  const done = runSetup(toml, env, {
    dryRun,
    print,
    write: (text) => writeFileSync(toml.path, text),
    wrangler: (args, input) => {
      const result = runWrangler(args, {
        stdio: "pipe",
        encoding: "utf8",
        ...(input === undefined ? {} : { input }),
        env: { CI: "true" },
      });
      return { status: result.status ?? 1, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
    },
  });
  if (!done) {
    print(`\nStopped: fix the above and run npm run deploy:setup -- --env ${env} again (what exists is kept).`);
    return 1;
  }
  // What setup does not do: the operator's values (ISSUER, …).
  const left = findPlaceholders(await readWranglerToml(toml.path), env).filter((f) => f.kind !== "id" && f.kind !== "secret");
  print(`\n${dryRun ? "Then" : "Next"}:`);
  if (left.length > 0) print(formatFindings(env, left).trimEnd().replace(/^/gm, "  "));
  print(`  npm run db:migrate:remote -- --env ${env}    # the schema, before the code that needs it`);
  print(`  npm run deploy -- --env ${env}               # refuses while a placeholder remains`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(await main());
