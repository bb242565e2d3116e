/**
 * The import-boundary check (CI): every import points down the layers of src/. dependency-cruiser
 * would do this, but it needs TypeScript's compiler API, which TypeScript 7 (native) no longer
 * ships; imports here are plain ES module specifiers, so reading them is enough.
 *
 *   lib          errors, log, config, text, sealing, openapi helpers → lib
 *   queue        the message union, send, the consumer loop          → lib, queue
 *   domain       pure rules (grading, scopes, formats, policies)    → lib, domain
 *   outbound     the one outbound request (safe targets, bounds)     → lib, domain, outbound
 *   db           the schema, statements, the after-commit list       → lib, domain, db
 *   auth         credentials, tokens, authorization, replay          → lib, queue, domain, db, auth
 *   rate-limit   the limiter                                         → lib, domain, rate-limit
 *   events       the outbox's delivery: fan-out, signing, attempts   → lib, queue, domain, outbound, db,
 *                                                                      events
 *   jobs         long work run in steps by the jobs queue            → lib, queue, domain, db, events,
 *                                                                      interchange, jobs
 *   authoring    a question's shapes and rows, shared by quizzes,    → lib, domain, db, authoring
 *                questions and imports
 *   interchange  question banks in and out (QTI, GIFT, Moodle, …)    → lib, domain, interchange (not
 *                as format plugins                                     domain/jobs: the formats are its own)
 *   imports      an import job: the upload in R2, the read, the       → lib, queue, domain, db, events,
 *                one batch that writes the quiz                         jobs, authoring, interchange, imports
 *   lti          LTI 1.3: launches, tool keys, the passback ledger   → lib, queue, domain, outbound, db,
 *                (never events)                                         jobs, lti
 *   sessions     learner and report sessions (§17): their tokens,   → lib, domain, db, sessions
 *                the operations each may call
 *   grading      grades, reviews, deadlines, regrades and the        → lib, queue, domain, db, events,
 *                running totals they write (never lti: it announces    jobs, grading
 *                kept grades to followers the worker wires)
 *   worker       the queue consumer, the cron, the after-commit      → all of the above, worker
 *                sender and the wiring of processes
 *   middleware   HTTP plumbing                                      → lib, domain, db, auth, rate-limit,
 *                                                                     sessions, middleware
 *   routes       one folder per resource                            → all but worker and middleware;
 *                                                                     another resource only by its schemas
 *   app.ts       builds the app and mounts every router             → anything
 *   index.ts     the worker's entry: the app, the consumer, the cron → app, worker (never a route module)
 * Tools (test/, scripts/, bench/) use the app and the layers under it, never a route module or
 * middleware. src/env.ts holds only types (bindings, the context's variables): anyone may use it,
 * and it names types of lib, domain and db.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..");

const PROCESSES = [
  "lib",
  "queue",
  "domain",
  "outbound",
  "db",
  "auth",
  "rate-limit",
  "events",
  "jobs",
  "authoring",
  "interchange",
  "imports",
  "sessions",
  "lti",
  "grading",
];

const ALLOWED: Record<string, string[]> = {
  lib: ["lib"],
  queue: ["lib", "queue"],
  domain: ["lib", "domain"],
  outbound: ["lib", "domain", "outbound"],
  db: ["lib", "domain", "db"],
  auth: ["lib", "queue", "domain", "db", "auth"],
  "rate-limit": ["lib", "domain", "rate-limit"],
  events: ["lib", "queue", "domain", "outbound", "db", "events"],
  // A job's representation names the format an import read (interchange's list of formats).
  jobs: ["lib", "queue", "domain", "db", "events", "interchange", "jobs"],
  authoring: ["lib", "domain", "db", "authoring"],
  interchange: ["lib", "domain", "interchange"],
  imports: ["lib", "queue", "domain", "db", "events", "jobs", "authoring", "interchange", "imports"],
  // LTI sends through the queue and the outbound request, never through webhooks' events.
  // The LTI tool signs learners in with a learner session (§18).
  lti: ["lib", "queue", "domain", "outbound", "db", "jobs", "sessions", "lti"],
  sessions: ["lib", "domain", "db", "sessions"],
  // Grading imports no feature that follows grades: it announces them (kept-grade-followers.ts).
  grading: ["lib", "queue", "domain", "db", "events", "jobs", "grading"],
  worker: [...PROCESSES, "worker"],
  middleware: ["lib", "domain", "db", "auth", "rate-limit", "sessions", "middleware"],
  routes: [...PROCESSES, "routes"],
  index: ["app", "worker"],
  tools: [...PROCESSES, "worker", "app", "index", "tools"],
  env: ["lib", "domain", "db", "sessions"],
};

/**
 * Modules a layer may not import although its layer rule allows their layer: the module, and why.
 * The list of formats (and their media types) is interchange's own, in formats/index.ts; the
 * jobs' rules must not become a second home for it.
 */
const NEVER: { from: string; module: string; why: string }[] = [
  { from: "interchange", module: "src/domain/jobs", why: "the formats are interchange's own (formats/index.ts)" },
];

/** The layer a file belongs to: a src/ folder, "app" and "index" at the root, "tools" outside src/. */
function layerOf(file: string): string {
  if (file === "src/env.ts") return "env";
  if (file === "src/app.ts") return "app";
  if (file === "src/index.ts") return "index";
  const match = /^src\/([^/]+)\//.exec(file);
  if (match?.[1]) return match[1];
  return "tools";
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g;

/** What is wrong with the imports of `file` (a path from the repository's root), whose text is `text`. */
export function importProblems(file: string, text: string): string[] {
  const from = layerOf(file);
  const problems: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier?.startsWith(".")) continue;
    const target = normalize(join(dirname(file), specifier)).replace(/\.tsx?$/, "");
    // A layer's folder itself ("../interchange") is its index.ts; src/app, src/index and src/env are files.
    const folder = /^src\/[^/]+$/.test(target) && !["src/app", "src/index", "src/env"].includes(target);
    const to = layerOf(folder ? `${target}/index.ts` : `${target}.ts`);
    if (to === "env" || from === "app") continue;
    if ((to === "app" || to === "index") && from !== "tools" && from !== "index") {
      problems.push(`${file} → ${target}: only tools and the entry may import the app`);
      continue;
    }
    if (!ALLOWED[from]?.includes(to)) {
      problems.push(`${file} → ${target}: ${from} may not import ${to}`);
      continue;
    }
    const never = NEVER.find((rule) => rule.from === from && rule.module === target);
    if (never) {
      problems.push(`${file} → ${target}: ${from} may not import ${target.replace(/^src\//, "")}: ${never.why}`);
      continue;
    }
    // A resource reaches another resource only through its schemas (the shapes it answers with);
    // what two resources share is a process of its own below routes/.
    const own = /^src\/routes\/([^/]+)\//.exec(file)?.[1];
    const other = /^src\/routes\/([^/]+)(?:\/(.+))?$/.exec(target);
    if (own && other && other[1] !== own && !/\.schemas$/.test(other[2] ?? ""))
      problems.push(`${file} → ${target}: a resource imports another resource only by its schemas`);
  }
  return problems;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const all = ["src", "test", "scripts", "bench"].flatMap((dir) => [...files(dir)].map((f) => relative(ROOT, join(ROOT, f))));
  const problems = all.flatMap((file) => importProblems(file, readFileSync(join(ROOT, file), "utf8")));
  for (const problem of problems) console.error(problem);
  console.log(`import boundaries: ${all.length} files, ${problems.length} upward import(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
