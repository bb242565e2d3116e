// npm run lint:openapi: writes the document GET /openapi.json serves to .wrangler/openapi.json (or
// --out FILE), then package.json runs Spectral on it (.spectral.yaml: spectral:oas + OWASP).
//
// No server: the app is imported and asked for /openapi.json in-process (src/ needs nothing of
// workerd to build its document), which takes a second or two. The document names the origin it
// was fetched from as its server; it is generated for an https origin, as deployed.
// scripts/client-generate.ts writes the client's copy with the same function.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { out: { type: "string" }, origin: { type: "string" } } });
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
}
