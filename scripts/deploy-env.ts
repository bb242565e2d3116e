// A deployed environment ([env.<name>] of wrangler.toml) as the deploy scripts see it: the resources
// its bindings name, where each stands in the file, and line edits that write an id into it while
// keeping every comment and the layout. The meaning comes from wrangler's own TOML reading; the
// lines from a small scan of the text, used only to point at a place and to edit one value.
import { readFileSync } from "node:fs";
import { QUIET_WRANGLER_ENV } from "./wrangler";

/** The parts of wrangler's raw config the deploy scripts read (wrangler.toml as parsed, before environments are resolved). */
export interface RawEnvironment {
  name?: string;
  workers_dev?: boolean;
  route?: unknown;
  routes?: unknown[];
  vars?: Record<string, unknown>;
  d1_databases?: { binding?: string; database_name?: string; database_id?: string }[];
  kv_namespaces?: { binding?: string; id?: string }[];
  queues?: {
    producers?: { binding?: string; queue?: string }[];
    consumers?: { queue?: string; dead_letter_queue?: string }[];
  };
  r2_buckets?: { binding?: string; bucket_name?: string; jurisdiction?: string }[];
}

export interface RawConfig extends RawEnvironment {
  env?: Record<string, RawEnvironment>;
}

export interface WranglerToml {
  path: string;
  text: string;
  raw: RawConfig;
}

/** wrangler.toml read by the pinned wrangler's parser, so that the scripts mean what wrangler means. */
export async function readWranglerToml(path = "wrangler.toml"): Promise<WranglerToml> {
  for (const [name, value] of Object.entries(QUIET_WRANGLER_ENV)) process.env[name] ??= value;
  const wrangler = (await import("wrangler")) as unknown as {
    experimental_readRawConfig(args: { config: string }): { rawConfig: RawConfig };
  };
  return { path, text: readFileSync(path, "utf8"), raw: wrangler.experimental_readRawConfig({ config: path }).rawConfig };
}

export const deployedEnvironments = (raw: RawConfig): string[] => Object.keys(raw.env ?? {});

export interface D1Resource {
  binding: string;
  name: string;
  id: string | undefined;
}
export interface KvResource {
  binding: string;
  id: string | undefined;
}
export interface QueueResource {
  name: string;
  /** Why the environment needs it: "producer EVENTS_QUEUE", "consumer", "dead-letter queue of …". */
  uses: string[];
}
export interface R2Resource {
  binding: string;
  name: string;
  jurisdiction: string | undefined;
}

export interface EnvironmentResources {
  env: string;
  /** The worker's name: [env.X] name, else wrangler's default `<top-level name>-<env>`. */
  worker: string;
  d1: D1Resource[];
  kv: KvResource[];
  /** Every queue the environment produces to, consumes or dead-letters into, each once. */
  queues: QueueResource[];
  r2: R2Resource[];
}

/** What [env.<env>] declares. Throws when wrangler.toml has no such environment. */
export function environmentResources(raw: RawConfig, env: string): EnvironmentResources {
  const section = raw.env?.[env];
  if (!section) throw new Error(`wrangler.toml has no [env.${env}] (environments: ${deployedEnvironments(raw).join(", ")})`);
  const queues = new Map<string, string[]>();
  const use = (name: string | undefined, why: string) => {
    if (name) queues.set(name, [...(queues.get(name) ?? []), why]);
  };
  for (const p of section.queues?.producers ?? []) use(p.queue, `producer ${p.binding}`);
  for (const c of section.queues?.consumers ?? []) {
    use(c.queue, "consumer");
    use(c.dead_letter_queue, `dead-letter queue of ${c.queue}`);
  }
  return {
    env,
    worker: section.name ?? `${raw.name}-${env}`,
    d1: (section.d1_databases ?? []).map((d) => ({ binding: d.binding ?? "", name: d.database_name ?? "", id: d.database_id })),
    kv: (section.kv_namespaces ?? []).map((k) => ({ binding: k.binding ?? "", id: k.id })),
    queues: [...queues].map(([name, uses]) => ({ name, uses })),
    r2: (section.r2_buckets ?? []).map((b) => ({
      binding: b.binding ?? "",
      name: b.bucket_name ?? "",
      jurisdiction: b.jurisdiction,
    })),
  };
}

/**
 * An id that names nothing yet: missing, empty, or made of zeros (the placeholders wrangler.toml
 * ships, `00000000-0000-0000-0000-000000000001`). A real D1 or KV id is random hex.
 */
export const isPlaceholderId = (id: string | undefined): boolean =>
  id === undefined || /^0{20,}[0-9a-f]{0,12}$/i.test(id.replaceAll("-", "")) || id.trim() === "";

// --- Lines ------------------------------------------------------------------------------------

interface Line {
  /** 1-based. */
  number: number;
  /** The table the line belongs to, as written in its header without brackets: `env.staging.d1_databases`. */
  table: string;
  /** Counts the headers, so that the entries of an array of tables ([[…]]) tell apart. */
  block: number;
  key: string | undefined;
  /** A basic string value ("…") as written; undefined for other values. */
  value: string | undefined;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const KEY_VALUE = /^\s*([A-Za-z0-9_-]+)\s*=\s*(?:"([^"\\]*)")?/;

function scan(text: string): Line[] {
  let table = "";
  let block = 0;
  return text.split("\n").map((line, i) => {
    const header = HEADER.exec(line);
    if (header) {
      table = (header[1] ?? "").replace(/\s*\.\s*/g, ".");
      block += 1;
      return { number: i + 1, table, block, key: undefined, value: undefined };
    }
    const pair = line.trimStart().startsWith("#") ? null : KEY_VALUE.exec(line);
    return { number: i + 1, table, block, key: pair?.[1], value: pair?.[2] };
  });
}

/** The line of `key` in the entry of [[<table>]] whose `match` key has `matchValue` (or in [<table>]). */
export function lineOf(text: string, table: string, key: string, match?: { key: string; value: string }): number | undefined {
  const lines = scan(text);
  const blocks = new Set(
    lines
      .filter((l) => l.table === table && (match === undefined || (l.key === match.key && l.value === match.value)))
      .map((l) => l.block),
  );
  return lines.find((l) => blocks.has(l.block) && l.key === key)?.number;
}

/**
 * Writes `value` as `key` of the entry of [[<table>]] whose `match.key` is `match.value`: the quoted
 * value of the existing line is replaced (its comment and indentation kept), or a line is added
 * after the matching one. Throws when no such entry is written as a table of its own.
 */
export function setTableValue(
  text: string,
  table: string,
  match: { key: string; value: string },
  key: string,
  value: string,
): string {
  const lines = text.split("\n");
  const scanned = scan(text);
  const anchor = scanned.find((l) => l.table === table && l.key === match.key && l.value === match.value);
  if (!anchor)
    throw new Error(`no [[${table}]] entry with ${match.key} = "${match.value}" on lines of its own: write ${key} by hand`);
  const existing = scanned.find((l) => l.block === anchor.block && l.key === key);
  if (existing) {
    const index = existing.number - 1;
    lines[index] = (lines[index] ?? "").replace(/^(\s*[A-Za-z0-9_-]+\s*=\s*)(?:"[^"\\]*"|[^#\s]*)/, `$1"${value}"`);
  } else {
    const indent = /^\s*/.exec(lines[anchor.number - 1] ?? "")?.[0] ?? "";
    lines.splice(anchor.number, 0, `${indent}${key} = "${value}"`);
  }
  return lines.join("\n");
}

/** "wrangler.toml:141 [[env.staging.d1_databases]] database_id" */
export function place(file: string, text: string, table: string, key: string, match?: { key: string; value: string }) {
  const line = lineOf(text, table, key, match);
  const brackets = match ? `[[${table}]]` : `[${table}]`;
  return `${file}${line === undefined ? "" : `:${line}`} ${brackets} ${key}`;
}
