// wrangler.toml as the deploy tests use it: the shipped file, copies of it with values changed, and
// what wrangler itself makes of an environment (the independent reading the scripts are checked against).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readWranglerToml, setTableValue, type WranglerToml } from "../../scripts/deploy-env";

export const ROOT = resolve(import.meta.dirname, "../..");
export const WRANGLER_TOML = join(ROOT, "wrangler.toml");
export const shippedText = () => readFileSync(WRANGLER_TOML, "utf8");

/** A copy of wrangler.toml with `text`, read back the way the scripts read the real one. */
export async function tomlWith(text: string): Promise<WranglerToml> {
  const dir = mkdtempSync(join(tmpdir(), "deploy-test-"));
  try {
    writeFileSync(join(dir, "wrangler.toml"), text);
    return await readWranglerToml(join(dir, "wrangler.toml"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const hex = (length: number, seed: number) => Array.from({ length }, (_, i) => ((seed * 7 + i * 13) % 16).toString(16)).join("");
const d1Id = (seed: number) =>
  `${hex(8, seed)}-${hex(4, seed + 1)}-4${hex(3, seed + 2)}-a${hex(3, seed + 3)}-${hex(12, seed + 4)}`;
const kvId = (seed: number) => hex(32, seed + 9);

/** The shipped file as an operator leaves it after deploy:setup and choosing the origins: nothing to refuse. */
export function filledIn(text = shippedText(), envs = ["staging", "production"]): string {
  let filled = text;
  envs.forEach((env, i) => {
    filled = setTableValue(filled, `env.${env}.d1_databases`, { key: "binding", value: "DB" }, "database_id", d1Id(i + 1));
    filled = setTableValue(filled, `env.${env}.kv_namespaces`, { key: "binding", value: "KV" }, "id", kvId(i + 1));
  });
  return filled.replaceAll("<your-subdomain>", "acme-quiz");
}

interface ResolvedEnvironment {
  name?: string;
  d1_databases: { binding: string; database_name?: string; database_id?: string }[];
  kv_namespaces: { binding: string; id?: string }[];
  queues: { producers?: { queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
  r2_buckets: { bucket_name?: string }[];
}

/** wrangler's own reading of [env.<env>] (unstable_readConfig, environments resolved). */
export function wranglerView(env: string, path = WRANGLER_TOML) {
  const wrangler = createRequire(import.meta.url)("wrangler") as {
    unstable_readConfig(args: { config: string; env: string }, options?: { hideWarnings?: boolean }): ResolvedEnvironment;
  };
  const config = wrangler.unstable_readConfig({ config: path, env }, { hideWarnings: true });
  const queues = new Set<string>();
  for (const p of config.queues.producers ?? []) queues.add(p.queue);
  for (const c of config.queues.consumers ?? []) {
    queues.add(c.queue);
    if (c.dead_letter_queue) queues.add(c.dead_letter_queue);
  }
  return {
    worker: config.name ?? "",
    d1: config.d1_databases.map((d) => ({ name: d.database_name ?? "", id: d.database_id ?? "" })),
    kv: config.kv_namespaces.map((k) => ({ binding: k.binding, id: k.id ?? "" })),
    queues: [...queues],
    r2: config.r2_buckets.map((b) => b.bucket_name ?? ""),
  };
}
