// npm run client:smoke: uses @quiz-api/client the way another project does, far from this
// repository. It packs clients/typescript with `npm pack`, installs the tarball (and openapi-fetch
// from the registry, --prefer-offline) into two fresh projects in a temporary folder outside the
// repository, one an ES module ("type": "module", TypeScript as the root pins it) and one CommonJS
// ("type": "commonjs", TypeScript 5 as clients/codegen pins it), and checks that each resolves its
// own build (dist/index.mjs, dist/index.cjs) from its own node_modules. Each typechecks and compiles
// clients/typescript/smoke/main.ts with tsc --strict (module nodenext; no skipLibCheck, so the
// package's declarations are checked too). Then it builds the worker, serves it under Miniflare
// with a throw-away D1/KV and a rate limit of RATE_LIMIT_REQUESTS per second, so that a burst meets
// real 429s (scripts/local-worker.ts), inserts an admin API key, and runs both programs against it:
// pagination, a real 429 retried after its Retry-After, a lost POST answer replayed through its
// Idempotency-Key, client credentials, the bookmark echo. Exit 1 on any failure; --keep keeps the folder.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { newApiKey } from "../src/auth/api-keys";
import { buildWorker } from "./build";
import { type LocalWorker, startLocalWorker } from "./local-worker";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT_DIR = join(ROOT, "clients/typescript");
const PROGRAM = join(CLIENT_DIR, "smoke/main.ts");
/** Small enough that 25 calls at once meet 429s, large enough that the rest of the program rarely waits. */
const RATE_LIMIT_REQUESTS = "10";
const RATE_LIMIT_WINDOW_SECONDS = "1";
/** A program takes about 5 s; one that hangs fails the smoke rather than CI's whole run. */
const PROGRAM_TIMEOUT_MS = 120_000;
const { values } = parseArgs({ options: { keep: { type: "boolean", default: false } } });

interface Project {
  name: "esm" | "cjs";
  type: "module" | "commonjs";
  typescript: string;
  /** The file of the package this project's Node must load, and what its compiled import must look like. */
  entry: string;
  compiledImport: RegExp;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const PROJECTS: Project[] = [
  {
    name: "esm",
    type: "module",
    typescript: readJson(join(ROOT, "node_modules/typescript/package.json")).version,
    entry: "dist/index.mjs",
    compiledImport: /^import \{[^}]*\} from "@quiz-api\/client";$/m,
  },
  {
    name: "cjs",
    type: "commonjs",
    typescript: readJson(join(ROOT, "clients/codegen/package-lock.json")).packages["node_modules/typescript"].version,
    entry: "dist/index.cjs",
    compiledImport: /require\("@quiz-api\/client"\)/,
  },
];
/** What the tarball must hold (the targets of its "exports") and must not (the source). */
const SHIPPED = [
  "package.json",
  "README.md",
  "schema.d.ts",
  "openapi.json",
  "dist/index.mjs",
  "dist/index.cjs",
  "dist/index.d.ts",
  "dist/index.d.mts",
];
const NOT_SHIPPED = /^(index\.ts|src\/|smoke\/|tsconfig\.json|biome\.json)/;

const started = performance.now();
const log = (line: string) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

function run(command: string, args: string[], cwd: string) {
  execFileSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
}

/**
 * Runs a program while this process keeps serving: Miniflare reads workerd's output here, and a
 * blocked event loop (execFileSync) would let that pipe fill until workerd stalls mid-request.
 */
function runAlongside(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"], timeout: PROGRAM_TIMEOUT_MS });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} exited with ${signal ?? `code ${code}`}`)),
    );
  });
}
const output = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A project here must find nothing of this repository, nor any node_modules above its own. */
function checkIsolated(dir: string) {
  const real = realpathSync(dir);
  check(!`${real}${sep}`.startsWith(`${realpathSync(ROOT)}${sep}`), `${real} is inside the repository`);
  for (let up = dirname(real); ; up = dirname(up)) {
    check(
      !existsSync(join(up, "node_modules")),
      `${join(up, "node_modules")} exists: the projects could resolve packages from it`,
    );
    if (dirname(up) === up) break;
  }
}

/** npm pack into dir; the tarball's path, after checking what it holds. */
function pack(dir: string): string {
  const [report] = JSON.parse(output("npm", ["pack", "--json", "--pack-destination", dir, "--loglevel=error"], CLIENT_DIR)) as {
    filename: string;
    files: { path: string }[];
  }[];
  check(report, "npm pack reported nothing");
  const files = report.files.map((f) => f.path);
  const missing = SHIPPED.filter((f) => !files.includes(f));
  check(missing.length === 0, `the tarball lacks ${missing.join(", ")}`);
  const source = files.filter((f) => NOT_SHIPPED.test(f));
  check(source.length === 0, `the tarball ships source files: ${source.join(", ")}`);
  log(`packed ${report.filename}: ${files.length} files (${files.join(", ")})`);
  return join(dir, report.filename);
}

function setUpProject(dir: string, project: Project, tarball: string): string {
  const path = join(dir, project.name);
  mkdirSync(path);
  const packageJson = {
    name: `quiz-client-smoke-${project.name}`,
    private: true,
    type: project.type,
    dependencies: { "@quiz-api/client": `file:${relative(path, tarball)}`, typescript: project.typescript },
  };
  writeFileSync(join(path, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  const compilerOptions = {
    strict: true,
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM"],
    types: [],
    outDir: "out",
  };
  writeFileSync(join(path, "tsconfig.json"), `${JSON.stringify({ compilerOptions, files: ["main.ts"] }, null, 2)}\n`);
  writeFileSync(join(path, "main.ts"), readFileSync(PROGRAM, "utf8"));

  log(`${project.name}: npm install (the tarball, openapi-fetch from the registry, typescript ${project.typescript})`);
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], path);
  const installed = join(path, "node_modules/@quiz-api/client");
  check(!lstatSync(installed).isSymbolicLink(), `${installed} is a link, not an installed copy`);
  check(existsSync(join(path, "node_modules/openapi-fetch/package.json")), "openapi-fetch was not installed with the package");
  const resolved =
    project.type === "module"
      ? output(process.execPath, ["--input-type=module", "-e", 'console.log(import.meta.resolve("@quiz-api/client"))'], path)
      : output(process.execPath, ["-e", 'console.log(require.resolve("@quiz-api/client"))'], path);
  const expected = join(realpathSync(installed), project.entry);
  check(
    resolved === expected || resolved === `file://${expected}`,
    `${project.name}: @quiz-api/client resolves to ${resolved}, not ${expected}`,
  );
  log(
    `${project.name}: @quiz-api/client resolves to node_modules/@quiz-api/client/${project.entry}, beside its own openapi-fetch`,
  );

  log(`${project.name}: tsc ${project.typescript} --strict (nodenext): typecheck and compile main.ts`);
  run(process.execPath, [join(path, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], path);
  const compiled = readFileSync(join(path, "out/main.js"), "utf8");
  check(project.compiledImport.test(compiled), `${project.name}: out/main.js does not load the package as ${project.type}`);
  return path;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "quiz-client-smoke-"));
  let worker: LocalWorker | undefined;
  try {
    checkIsolated(dir);
    const tarball = pack(dir);
    const projects = PROJECTS.map((project) => ({ project, path: setUpProject(dir, project, tarball) }));

    log(
      `building the worker; Miniflare with a throw-away D1/KV, ${RATE_LIMIT_REQUESTS} requests per ${RATE_LIMIT_WINDOW_SECONDS} s per credential`,
    );
    const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: false });
    worker = await startLocalWorker({
      scriptPath: outfile,
      persistRoot: join(dir, "state"),
      quiet: true,
      // No request log: the programs' hundreds of requests would only bury a failure.
      vars: { RATE_LIMIT_REQUESTS, RATE_LIMIT_WINDOW_SECONDS, LOG_LEVEL: "warn" },
    });
    const { key, row } = await newApiKey({ name: "client smoke", scopes: ["admin"], expiresAt: null });
    await (await worker.mf.getD1Database("DB"))
      .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
      .run();
    for (const { project, path } of projects) {
      log(`${project.name}: node out/main.js against ${worker.url}`);
      await runAlongside(process.execPath, [join(path, "out/main.js"), worker.url, key, project.name], path);
    }
    log("client smoke passed");
    return 0;
  } catch (error) {
    process.stderr.write(`client smoke failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await worker?.dispose();
    if (values.keep) log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(await main());
