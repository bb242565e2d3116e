// Builds: the bundle `npm run build` makes and `npm run deploy` uploads (scripts/build.ts:
// esbuild with zod cut to its English locale, minified unless --no-minify), wrangler's own
// bundling for comparison, and the bench-only workers with the esbuild wrangler itself uses.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import type { BuildOptions, Plugin } from "esbuild";
import { buildWorker as buildProjectWorker } from "../scripts/build";
import { runWrangler } from "../scripts/wrangler";

export interface BundleSize {
  file: string;
  raw: number;
  /** zlib's default level, as wrangler's "Total Upload … / gzip" line. */
  gzip: number;
  /** wrangler's own line, e.g. "Total Upload: 1252.35 KiB / gzip: 225.44 KiB". */
  wranglerReport: string | undefined;
}

export function sizeOf(file: string, wranglerReport?: string): BundleSize {
  const bytes = readFileSync(file);
  return { file, raw: bytes.length, gzip: gzipSync(bytes).length, wranglerReport };
}

function wrangler(args: string[]): string {
  const result = runWrangler(args, { stdio: "pipe", encoding: "utf8" });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${output}`);
  return /Total Upload:[^\n]*/.exec(output)?.[0] ?? "";
}

/**
 * The project's build into `outdir` (what `npm run build [-- --no-minify]` writes to dist/), and
 * what wrangler says of it as `npm run deploy` uploads it (--no-bundle).
 */
export async function projectBuild(outdir: string, minify: boolean, askWrangler = true): Promise<BundleSize> {
  const { outfile } = await buildProjectWorker({ outdir, minify });
  // --config: with an entry outside the project, wrangler would look for its config beside the entry.
  const report = askWrangler
    ? wrangler(["deploy", outfile, "--no-bundle", "--dry-run", "--config", "wrangler.toml", "--outdir", join(outdir, "upload")])
    : undefined;
  return sizeOf(outfile, report);
}

/** For comparison: wrangler bundling src/index.ts itself (`wrangler deploy --dry-run [--minify]`), without the project's zod plugin. */
export function wranglerBuild(outdir: string, minify: boolean): BundleSize {
  const report = wrangler(["deploy", "--dry-run", "--outdir", outdir, ...(minify ? ["--minify"] : [])]);
  return sizeOf(join(outdir, "index.js"), report);
}

/** The esbuild wrangler runs (one esbuild in the tree), loaded the way wrangler loads it. */
async function esbuild(): Promise<typeof import("esbuild")> {
  const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
  return (await import(pathToFileURL(fromWrangler.resolve("esbuild")).href)) as typeof import("esbuild");
}

/** wrangler's bundling options (wrangler 4.86 bundleWorker: target, conditions, define). */
const WRANGLER_LIKE: BuildOptions = {
  bundle: true,
  format: "esm",
  target: "es2024",
  conditions: ["workerd", "worker", "browser"],
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "silent",
};

/** A bench-only worker (baseline, counting, SQL), bundled with wrangler's settings. */
export async function bundleBenchWorker(entry: string, outfile: string): Promise<string> {
  await (await esbuild()).build({ ...WRANGLER_LIKE, entryPoints: [entry], outfile });
  return outfile;
}

/**
 * scripts/build.ts keeps only zod's English locale; the same, for the composition below (its own
 * build does not report where its bytes come from).
 */
function zodEnglishOnly(): Plugin {
  const en = join(createRequire(import.meta.url).resolve("zod/package.json"), "..", "v4", "locales", "en.js");
  return {
    name: "zod-english-only",
    setup(build) {
      build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
        args.importer.includes("/node_modules/zod/") ? { path: "en-only", namespace: "zod-locales" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
        contents: `export { default as en } from ${JSON.stringify(en)};`,
        loader: "js",
        resolveDir: "/",
      }));
    },
  };
}

/** Bytes each package (or src/) contributes to the minified bundle as built for deploy, largest first. */
export async function composition(entry: string): Promise<{ name: string; bytes: number }[]> {
  const result = await (await esbuild()).build({
    ...WRANGLER_LIKE,
    entryPoints: [entry],
    minify: true,
    write: false,
    metafile: true,
    outdir: "unused",
    plugins: [zodEnglishOnly()],
  });
  const byPackage = new Map<string, number>();
  for (const output of Object.values(result.metafile?.outputs ?? {})) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const parts = relative(".", path).split("/");
      const at = parts.lastIndexOf("node_modules");
      // The sanitizer (src/domain/content, docs/content.md) is named on its own, beside KaTeX.
      const name =
        at < 0
          ? path.includes("src/domain/content/")
            ? "src/domain/content"
            : (parts[0] ?? path)
          : parts[at + 1]?.startsWith("@")
            ? `${parts[at + 1]}/${parts[at + 2]}`
            : (parts[at + 1] ?? path);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
