// npm run lint:openapi: writes the document GET /openapi.json serves to .wrangler/openapi.json (or
// --out FILE), then package.json runs Spectral on it (.spectral.yaml: spectral:oas + OWASP).
//
// No server: the app is imported and asked for /openapi.json in-process (src/ needs nothing of
// workerd to build its document), which takes a second or two. The document names the origin it
// was fetched from as its server; it is generated for an https origin, as deployed.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { out: { type: "string" }, origin: { type: "string" } } });
const out = values.out ?? ".wrangler/openapi.json";
const origin = values.origin ?? "https://quiz-api.example.com";

// The app logs every request on stdout; this one's line is not wanted here.
const log = console.log;
console.log = () => {};
const { app } = await import("../src/app");
const res = await app.request(`${origin}/openapi.json`, {}, {} as Env);
const text = await res.text();
console.log = log;

if (res.status !== 200) {
  process.stderr.write(`GET /openapi.json → ${res.status}: ${text.slice(0, 500)}\n`);
  process.exit(1);
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
process.stdout.write(`wrote ${out} (${Object.keys(JSON.parse(text).paths ?? {}).length} paths)\n`);
