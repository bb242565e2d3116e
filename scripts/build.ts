// The worker's one build. wrangler runs this file itself, as the [build] command of wrangler.toml,
// before `wrangler dev` serves and before `wrangler deploy` uploads, and again in dev whenever src/
// changes; wrangler.toml's main is its output (dist/index.js) with no_bundle = true, so the file
// served locally is the file deployed. It also copies the docs' renderer into public/
// (scripts/docs-assets.ts), which wrangler serves as the static assets of [assets].
//
// `npm run build` runs `wrangler deploy --dry-run`, which runs this and checks the result.
//
// Run by `wrangler dev` (wrangler sets WRANGLER_COMMAND=dev for the build command), the bundle
// also serves the one dev route wrangler adds to the bundles it builds itself and adds nothing to
// ours (no_bundle): `/__scheduled?cron=…`, see DEV_ENTRY. Deployed bundles never have it.
//
// wrangler 4.86 runs the build command twice when `wrangler dev` starts: once to find the entry,
// and again as soon as its watcher of src/ is ready, though nothing changed ("The file src changed,
// restarting build…"; cloudflare/workers-sdk#7934, fixed upstream after 4.86, and every later
// wrangler needs Node 22). So under `wrangler dev` a build whose inputs (every file esbuild read,
// this script, the options) are byte for byte those of the bundle already in outdir keeps that
// bundle: the second run costs a hash of the inputs, not a build and a reload.
//
// The bundle is built here rather than by wrangler for one reason: zod 4 re-exports all of its
// ~50 locales through the `z` namespace, so no bundler can drop them (≈ 258 KB of 673 KB
// minified), and wrangler takes no esbuild plugins. The service speaks English only; the plugin
// below keeps zod's `en` locale (zod itself configures it) and drops the others.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { copyDocsAssets, docsAssetsInPlace } from "./docs-assets";

const zodEnglishOnly: esbuild.Plugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "zod")}`)
        ? { path: "zod-locales", namespace: "zod-english-only" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, () => ({
      contents: `export { default as en } from "zod/v4/locales/en.js";`,
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * The entry of a bundle for `wrangler dev`: the worker, plus `/__scheduled?cron=…`, which runs its
 * `scheduled` handler (the cron: deadlines, the outbox sweep, stalled jobs) and answers 200, or 500
 * with the error. wrangler adds this route (under --test-scheduled) only to bundles it builds.
 * Locally it is the only way in: wrangler 4.86 (miniflare 4.20260426) answers
 * `/cdn-cgi/handler/scheduled` of any worker with [assets] "500 exception" without entering
 * `scheduled`, because it sends the event to the assets proxy in front of the worker, which cannot
 * pass it on (cloudflare/workers-sdk#9882, fixed upstream after 4.86; every later wrangler needs
 * Node 22). Plain JavaScript: esbuild bundles it like a file beside src/.
 */
const DEV_ENTRY = `
import worker from "./src/index.ts";

export default {
  ...worker,
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname !== "/__scheduled") return worker.fetch(request, env, ctx);
    const controller = { cron: url.searchParams.get("cron") ?? "", scheduledTime: Date.now(), noRetry() {} };
    try {
      await worker.scheduled(controller, env, ctx);
    } catch (error) {
      console.error("/__scheduled: the scheduled handler failed", error);
      return new Response("The scheduled handler failed: " + (error?.stack ?? String(error)) + "\\n", { status: 500 });
    }
    return new Response("Ran scheduled event\\n");
  },
};
`;

interface BuildOptions {
  outdir: string;
  minify: boolean;
  devRoutes?: boolean;
  /** Keep the bundle in outdir when it was built from the same inputs (see the top of this file). */
  reuse?: boolean;
}

/** Beside the bundle: what it was built from (the files esbuild read, in order) and their fingerprint. */
const INPUTS_FILE = "index.js.inputs.json";
const THIS_FILE = fileURLToPath(import.meta.url);

/**
 * A hash of the files' contents (a missing file counts as missing) and of `extra`: equal only when
 * every byte is. esbuild's own inputs outside the file system (the dev entry, the zod plugin's
 * module) are covered by this file's own content, which is always hashed.
 */
export function inputsFingerprint(files: string[], extra: string): string {
  const hash = createHash("sha256").update(extra).update("\0").update(readFileSync(THIS_FILE)).update("\0");
  for (const file of files) {
    hash.update(file).update("\0");
    hash.update(existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "(missing)").update("\0");
  }
  return hash.digest("hex");
}

const optionsKey = (options: BuildOptions) => JSON.stringify({ minify: options.minify, devRoutes: options.devRoutes ?? false });

/** Whether outdir holds a bundle built from exactly these inputs. */
function upToDate(options: BuildOptions, outfile: string): boolean {
  const record = join(options.outdir, INPUTS_FILE);
  if (!existsSync(outfile) || !existsSync(`${outfile}.map`) || !existsSync(record)) return false;
  try {
    const { files, fingerprint } = JSON.parse(readFileSync(record, "utf8")) as { files: string[]; fingerprint: string };
    return Array.isArray(files) && fingerprint === inputsFingerprint(files, optionsKey(options));
  } catch {
    return false;
  }
}

export async function buildWorker(options: BuildOptions) {
  mkdirSync(options.outdir, { recursive: true });
  const outfile = join(options.outdir, "index.js");
  const reused = options.reuse === true && upToDate(options, outfile);
  if (!reused) {
    const entry: Pick<esbuild.BuildOptions, "entryPoints" | "stdin"> = options.devRoutes
      ? { stdin: { contents: DEV_ENTRY, resolveDir: process.cwd(), sourcefile: "dev-entry.js", loader: "js" } }
      : { entryPoints: ["src/index.ts"] };
    // The settings wrangler uses for a modules worker (conditions, format, externals).
    const { metafile } = await esbuild.build({
      ...entry,
      outfile,
      bundle: true,
      format: "esm",
      target: "es2022",
      platform: "neutral",
      mainFields: ["module", "main"],
      conditions: ["workerd", "worker", "browser"],
      external: ["cloudflare:*", "node:*"],
      minify: options.minify,
      sourcemap: true,
      legalComments: "none",
      plugins: [zodEnglishOnly],
      logLevel: "warning",
      metafile: true,
    });
    // Paths in the metafile are relative to the working directory; the plugin's and stdin's are not files.
    const files = Object.keys(metafile.inputs)
      .filter((path) => !path.includes(":") && path !== "<stdin>")
      .map((path) => resolve(path));
    const record = { files, fingerprint: inputsFingerprint(files, optionsKey(options)) };
    writeFileSync(join(options.outdir, INPUTS_FILE), `${JSON.stringify(record)}\n`);
  }
  const bytes = (await stat(outfile)).size;
  const gzip = gzipSync(readFileSync(outfile), { level: 9 }).length;
  return { outfile, bytes, gzip, reused };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { outdir: { type: "string" }, "no-minify": { type: "boolean" } } });
  const devRoutes = process.env.WRANGLER_COMMAND === "dev";
  const outdir = resolve(values.outdir ?? "dist");
  const result = await buildWorker({ outdir, minify: !values["no-minify"], devRoutes, reuse: devRoutes });
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  if (result.reused) process.stdout.write(`Bundle ${result.outfile}: up to date with its inputs, kept (not rebuilt)\n`);
  else process.stdout.write(`Bundle ${result.outfile}: ${kib(result.bytes)} raw, ${kib(result.gzip)} gzip\n`);
  if (devRoutes) process.stdout.write("For wrangler dev: GET /__scheduled?cron=… runs the cron\n");
  // Never rewritten when in place: wrangler dev reloads the worker on any change under public/,
  // which drops the requests it is serving.
  if (docsAssetsInPlace()) process.stdout.write("Docs assets: in place in public/docs/vendor/, kept\n");
  else {
    const docs = copyDocsAssets();
    process.stdout.write(`Docs assets: swagger-ui-dist ${docs.version} in public/docs/vendor/\n`);
  }
}
