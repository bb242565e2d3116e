// npm run lint:openapi: writes the document GET /openapi.json serves to .wrangler/openapi.json (or
// --out FILE), then with --lint runs Spectral on it (.spectral.yaml: spectral:oas + OWASP, errors
// fail) and Redocly (redocly.yaml, `recommended`). Each linter's output is printed whole when it
// fails; when it passes, one line says so with its warnings counted, so that a green CI run shows no
// banner (Redocly prints a Node 20 deprecation box on every run).
//
// No server: the app is imported and asked for /openapi.json in-process (src/ needs nothing of
// workerd to build its document), which takes a second or two. The document names the origin it
// was fetched from as its server; it is generated for an https origin, as deployed.
// scripts/client-generate.ts writes the client's copy with the same function.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

export const DEFAULT_ORIGIN = "https://quiz-api.example.com";

/** The document GET /openapi.json serves, as written to disk (2-space JSON and a final newline). */
export async function openApiDocumentText(origin = DEFAULT_ORIGIN): Promise<string> {
  // The app logs every request on stdout; this one's line is not wanted here.
  const log = console.log;
  console.log = () => {};
  let res: Response;
  let text: string;
  try {
    const { app } = await import("../src/app");
    res = await app.request(`${origin}/openapi.json`, {}, {} as Env);
    text = await res.text();
  } finally {
    console.log = log;
  }
  if (res.status !== 200) throw new Error(`GET /openapi.json → ${res.status}: ${text.slice(0, 500)}`);
  return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
}

/** The linters' binaries (@stoplight/spectral-cli, @redocly/cli: run by name, so knip.json names them as used). */
const BIN = join(import.meta.dirname, "../node_modules/.bin");

/** Runs a linter on the written document: its whole output when it fails, one line when it passes. */
function lint(name: string, command: string, args: string[], summary: (output: string) => string): boolean {
  const run = spawnSync(command, args, {
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${BIN}${delimiter}${process.env.PATH ?? ""}`,
      NO_COLOR: "1",
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    },
  });
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? `${run.error.message}\n` : ""}`;
  if (run.status === 0) {
    process.stdout.write(`${name}: ${summary(output)}\n`);
    return true;
  }
  process.stderr.write(`${name} failed (exit ${run.status ?? run.signal}):\n${output}`);
  return false;
}

/** "2 warnings (operation-4xx-response 2, no-server-example.com 1)" from Redocly's summary lines. */
function redoclyWarnings(output: string): string {
  const rules = [...output.matchAll(/^warning (\S+): (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const total = rules.reduce((sum, rule) => sum + Number(rule.split(" ")[1]), 0);
  return total === 0 ? "valid, no warnings" : `valid, ${total} warnings (${rules.join(", ")})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: { out: { type: "string" }, origin: { type: "string" }, lint: { type: "boolean", default: false } },
  });
  const out = values.out ?? ".wrangler/openapi.json";
  let text: string;
  try {
    text = await openApiDocumentText(values.origin ?? DEFAULT_ORIGIN);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`wrote ${out} (${Object.keys(JSON.parse(text).paths ?? {}).length} paths)\n`);
  if (values.lint) {
    const spectral = lint(
      "Spectral",
      "spectral",
      ["lint", out, "--fail-severity=error", "--display-only-failures"],
      () => "no errors",
    );
    const redocly = lint("Redocly", "redocly", ["lint", out, "--format=summary"], redoclyWarnings);
    if (!spectral || !redocly) process.exit(1);
  }
}
