// npm run client:smoke: uses @quiz-api/client the way another project does, far from this
// repository. It packs clients/typescript with `npm pack`, installs the tarball (and openapi-fetch
// from the registry, --prefer-offline) into two fresh projects in a temporary folder outside the
// repository, one an ES module ("type": "module", TypeScript as the root pins it) and one CommonJS
// ("type": "commonjs", TypeScript 5 as clients/codegen pins it), and checks that each resolves its
// own build (dist/index.mjs, dist/index.cjs) from its own node_modules. Each typechecks and compiles
// clients/typescript/smoke/main.ts with tsc --strict (module nodenext; no skipLibCheck, so the
// package's declarations are checked too). Then it starts `npm run dev` as a newcomer does, on free
// ports with a state directory of its own (DEV_STATE_DIR) and a rate limit of RATE_LIMIT_REQUESTS a
// second, so that a burst meets real 429s, and runs both programs against it with the admin key
// npm run dev made: pagination, a real 429 retried after its Retry-After, a lost POST answer
// replayed through its Idempotency-Key, client credentials, the bookmark echo. Exit 1 on any
// failure (npm run dev's output is printed then); --keep keeps the folder.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { QUIET_WRANGLER_ENV } from "./wrangler";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT_DIR = join(ROOT, "clients/typescript");
const PROGRAM = join(CLIENT_DIR, "smoke/main.ts");
/** Small enough that 25 calls at once meet 429s, large enough that the rest of the program rarely waits. */
const RATE_LIMIT_REQUESTS = "10";
const RATE_LIMIT_WINDOW_SECONDS = "1";
/** A program takes about 5 s; one that hangs fails the smoke rather than CI's whole run. */
const PROGRAM_TIMEOUT_MS = 120_000;
/** Migrations, the first key, wrangler's build and start: about 20 s here, more on a busy machine. */
const DEV_START_TIMEOUT_MS = 150_000;
const DEV_STOP_TIMEOUT_MS = 15_000;
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

const output = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();

/** Runs a program, failing it after PROGRAM_TIMEOUT_MS. */
function runProgram(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"], timeout: PROGRAM_TIMEOUT_MS });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} exited with ${signal ?? `code ${code}`}`)),
    );
  });
}

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DevServer {
  url: string;
  /** The local admin key npm run dev made (DEV_STATE_DIR/dev-credentials.json). */
  key: string;
  logFile: string;
  child: ChildProcess;
}

/**
 * `npm run dev` in a process group of its own, on free ports, with its state in `stateDir`.
 * wrangler dev reads vars from the process environment with CLOUDFLARE_INCLUDE_PROCESS_ENV (while
 * there is no .dev.vars), so it gets an environment of a few names only: each becomes a binding.
 */
async function startDev(stateDir: string): Promise<DevServer> {
  if (existsSync(join(ROOT, ".dev.vars")))
    throw new Error("a .dev.vars file exists: wrangler dev then ignores the rate limit the smoke sets; move it aside");
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const logFile = join(stateDir, "npm-run-dev.log");
  mkdirSync(stateDir, { recursive: true });
  const out = openSync(logFile, "a");
  const child = spawn("npm", ["run", "-s", "dev"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", out, out],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      CI: "true",
      ...QUIET_WRANGLER_ENV,
      PORT: String(port),
      INSPECTOR_PORT: String(inspectorPort),
      DEV_STATE_DIR: stateDir,
      // No cron run during the smoke: nothing here waits for one.
      DEV_CRON_SECONDS: "3600",
      CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
      RATE_LIMIT_REQUESTS,
      RATE_LIMIT_WINDOW_SECONDS,
      // No request log: the programs' hundreds of requests would only bury a failure.
      LOG_LEVEL: "warn",
    },
  });
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const credentials = join(stateDir, "dev-credentials.json");
  for (const deadline = Date.now() + DEV_START_TIMEOUT_MS; Date.now() < deadline && child.exitCode === null; ) {
    const healthy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.ok;
      })
      .catch(() => false);
    if (healthy && existsSync(credentials)) {
      const { key } = JSON.parse(readFileSync(credentials, "utf8")) as { key: string };
      return { url, key, logFile, child };
    }
    await sleep(250);
  }
  await stopDev(child);
  throw new Error(`npm run dev did not answer GET ${url}/health (exit ${child.exitCode}):\n${readFileSync(logFile, "utf8")}`);
}

/** TERM to the whole group (npm, tsx, wrangler, workerd), KILL if it lingers. */
async function stopDev(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // The group is gone already.
    }
  };
  signal("SIGTERM");
  if (!(await Promise.race([exited.then(() => true), sleep(DEV_STOP_TIMEOUT_MS).then(() => false)]))) signal("SIGKILL");
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "quiz-client-smoke-"));
  let dev: DevServer | undefined;
  let failed = false;
  try {
    checkIsolated(dir);
    const tarball = pack(dir);
    const projects = PROJECTS.map((project) => ({ project, path: setUpProject(dir, project, tarball) }));

    log(
      `npm run dev on a free port, its own state directory, ${RATE_LIMIT_REQUESTS} requests per ${RATE_LIMIT_WINDOW_SECONDS} s per credential`,
    );
    dev = await startDev(join(dir, "dev-state"));
    for (const { project, path } of projects) {
      log(`${project.name}: node out/main.js against ${dev.url}`);
      await runProgram(process.execPath, [join(path, "out/main.js"), dev.url, dev.key, project.name], path);
    }
    log("client smoke passed");
    return 0;
  } catch (error) {
    failed = true;
    process.stderr.write(`client smoke failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    if (dev) {
      await stopDev(dev.child);
      if (failed) process.stderr.write(`--- npm run dev's output ---\n${readFileSync(dev.logFile, "utf8")}--- end ---\n`);
    }
    if (values.keep) log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(await main());
