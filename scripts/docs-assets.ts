// npx tsx scripts/docs-assets.ts: copies the renderer of /docs (Swagger UI, from the exactly pinned
// swagger-ui-dist package in node_modules) into public/docs/vendor/, which wrangler serves as
// Workers static assets ([assets] in wrangler.toml). The folder is generated, never committed
// (.gitignore): the version is the one package.json pins and package-lock.json verifies.
//
// npm here runs no lifecycle scripts (no prepare/pretest), so `npm test` calls this explicitly and
// the worker's build (scripts/build.ts, which wrangler runs before dev and deploy) calls
// copyDocsAssets. It takes a few milliseconds.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const DOCS_VENDOR_DIR = "public/docs/vendor";

/** What public/docs.html loads, and the licence texts that must travel with them. */
const FILES = [
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.LICENSE.txt",
  "swagger-ui.css",
  "favicon-32x32.png",
  "LICENSE",
  "NOTICE",
];

/** Whether outdir already holds the pinned version's files (a build that kept its bundle keeps them too). */
export function docsAssetsInPlace(outdir = DOCS_VENDOR_DIR): boolean {
  const target = resolve(outdir);
  const pinned = (JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { devDependencies?: Record<string, string> })
    .devDependencies?.["swagger-ui-dist"];
  const version = join(target, "VERSION");
  return (
    existsSync(version) &&
    readFileSync(version, "utf8") === `swagger-ui-dist ${pinned}\n` &&
    FILES.every((file) => existsSync(join(target, file)))
  );
}

export function copyDocsAssets(outdir = DOCS_VENDOR_DIR): { version: string; files: string[] } {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("swagger-ui-dist/package.json");
  const source = dirname(packageJson);
  const { version } = JSON.parse(readFileSync(packageJson, "utf8")) as { version: string };
  const pinned = (JSON.parse(readFileSync(resolve("package.json"), "utf8")) as { devDependencies?: Record<string, string> })
    .devDependencies?.["swagger-ui-dist"];
  // node_modules may be stale after a version bump in package.json: refuse to serve the old one.
  if (pinned !== version) throw new Error(`package.json pins swagger-ui-dist ${pinned}, node_modules has ${version}: run npm ci`);

  const target = resolve(outdir);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of FILES) copyFileSync(join(source, file), join(target, file));
  writeFileSync(join(target, "VERSION"), `swagger-ui-dist ${version}\n`);
  return { version, files: FILES };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { version, files } = copyDocsAssets();
  process.stdout.write(`docs assets: swagger-ui-dist ${version} (${files.length} files) → ${DOCS_VENDOR_DIR}/\n`);
}
