/**
 * The import-boundary check (CI): every import points down the layers of src/. dependency-cruiser
 * would do this, but it needs TypeScript's compiler API, which TypeScript 7 (native) no longer
 * ships; imports here are plain ES module specifiers, so reading them is enough.
 *
 *   lib          errors, log, config, text, openapi helpers        → lib
 *   domain       pure rules (grading, scopes, formats, policies)   → lib, domain
 *   db           the schema and statements                         → lib, domain, db
 *   auth         credentials, tokens, authorization, replay         → lib, domain, db, auth
 *   rate-limit   the limiter                                        → lib, domain, rate-limit
 *   events       delivery: queue messages, signing, the consumer    → lib, domain, db, events
 *   interchange  question banks in and out (QTI, GIFT, Moodle, …)   → lib, domain, interchange
 *   middleware   HTTP plumbing                                      → all of the above, middleware
 *   routes       one folder per resource                            → all but middleware; another
 *                                                                     resource only by its index or schemas
 *   app.ts, index.ts  build the app and mount every router          → anything
 * Tools (test/, scripts/, bench/) use the app and the layers under it, never a route module or
 * middleware. src/env.ts holds only types (bindings, the context's variables): anyone may use it,
 * and it names types of lib, domain and db.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");

const ALLOWED: Record<string, string[]> = {
  lib: ["lib"],
  domain: ["lib", "domain"],
  db: ["lib", "domain", "db"],
  auth: ["lib", "domain", "db", "auth"],
  "rate-limit": ["lib", "domain", "rate-limit"],
  events: ["lib", "domain", "db", "events"],
  interchange: ["lib", "domain", "interchange"],
  middleware: ["lib", "domain", "db", "auth", "rate-limit", "middleware"],
  routes: ["lib", "domain", "db", "auth", "rate-limit", "events", "interchange", "routes"],
  tools: ["lib", "domain", "db", "auth", "rate-limit", "events", "interchange", "app", "tools"],
  env: ["lib", "domain", "db"],
};

/** The layer a file belongs to: a src/ folder, "app" for the composition root, "tools" outside src/. */
function layerOf(file: string): string {
  if (file === "src/env.ts") return "env";
  if (file === "src/app.ts" || file === "src/index.ts") return "app";
  const match = /^src\/([^/]+)\//.exec(file);
  if (match?.[1]) return match[1];
  return "tools";
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g;

function check(file: string): string[] {
  const from = layerOf(file);
  const text = readFileSync(join(ROOT, file), "utf8");
  const problems: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier?.startsWith(".")) continue;
    const target = normalize(join(dirname(file), specifier)).replace(/\.tsx?$/, "");
    const to = layerOf(`${target}.ts`);
    if (to === "env" || from === "app") continue;
    if (to === "app" && from !== "tools") {
      problems.push(`${file} → ${target}: only tools may import the app`);
      continue;
    }
    if (!ALLOWED[from]?.includes(to)) {
      problems.push(`${file} → ${target}: ${from} may not import ${to}`);
      continue;
    }
    // A resource reaches another resource only through its index or its schemas.
    const own = /^src\/routes\/([^/]+)\//.exec(file)?.[1];
    const other = /^src\/routes\/([^/]+)\/(.+)$/.exec(target);
    if (own && other && other[1] !== own && !/^(index|.*\.schemas)$/.test(other[2] ?? ""))
      problems.push(`${file} → ${target}: a resource imports another resource only by its index or schemas`);
  }
  return problems;
}

const all = ["src", "test", "scripts", "bench"].flatMap((dir) => [...files(dir)].map((f) => relative(".", f)));
const problems = all.flatMap(check);
for (const problem of problems) console.error(problem);
console.log(`import boundaries: ${all.length} files, ${problems.length} upward import(s)`);
process.exit(problems.length === 0 ? 0 : 1);
