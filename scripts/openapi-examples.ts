// npx tsx scripts/openapi-examples.ts [--doc FILE] [--list]: counts, over the document GET
// /openapi.json serves (or a document written to FILE, e.g. by lint-openapi.ts --out), the response
// bodies without an example and the examples that hold a generated placeholder, by the rule of
// test/support/document-examples.ts; --list names each one. The document's tests fail on any.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { audit } from "../test/support/document-examples";
import { openApiDocumentText } from "./lint-openapi";

const { values } = parseArgs({ options: { doc: { type: "string" }, list: { type: "boolean" } } });
const doc = JSON.parse(values.doc ? readFileSync(values.doc, "utf8") : await openApiDocumentText());
const result = audit(doc);
const responses = new Set(result.bodies.map((b) => `${b.method} ${b.path} ${b.status}`));
const lines = [
  `response bodies: ${result.bodies.length} (in ${responses.size} responses)`,
  `without an example: ${result.withoutExample.length}`,
  `with a generated placeholder: ${result.placeholder.length}` +
    ` (${result.placeholder.filter((p) => p.body.example !== undefined).length} of them written, the rest generated;` +
    ` ${result.placeholder.reduce((n, p) => n + p.why.length, 0)} placeholder values in all)`,
  `not valid for their schema, or ids and timestamps of the wrong shape: ${result.invalid.length}`,
  `operations whose answer disagrees with their request example: ${result.disagreeing.length}`,
];
if (values.list) {
  const section = (title: string, items: string[]) => (items.length ? [``, `${title}:`, ...items.map((i) => `  ${i}`)] : []);
  lines.push(
    ...section(
      "without an example",
      result.withoutExample.map((b) => b.where),
    ),
    ...section(
      "placeholders",
      result.placeholder.map((p) => `${p.body.where}: ${p.why.slice(0, 3).join("; ")}${p.why.length > 3 ? " …" : ""}`),
    ),
    ...section(
      "invalid",
      result.invalid.map((p) => `${p.body.where}: ${p.why.slice(0, 3).join("; ")}`),
    ),
    ...section(
      "disagreeing",
      result.disagreeing.map((d) => `${d.where}: ${d.why.join("; ")}`),
    ),
  );
}
process.stdout.write(`${lines.join("\n")}\n`);
