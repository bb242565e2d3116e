// npm run client:smoke: uses clients/typescript the way a separate project does, outside this
// repository. In a temporary folder it writes a package.json that depends on
// "file:<repo>/clients/typescript" and on typescript (the root's version), runs npm install
// (--install-links: a packed copy, as another machine would get, not a symlink whose imports could
// resolve through this repository's node_modules), typechecks a small program with tsc --strict
// (module/moduleResolution nodenext, the client's .d.ts included: no skipLibCheck) and compiles it.
// Then it builds the worker, serves it under Miniflare with a throw-away D1/KV
// (scripts/local-worker.ts), inserts an admin API key, and runs the program with node: it creates a
// quiz and lists quizzes through createQuizClient, and checks the answers. Exit 1 on any failure.
// Network: the npm registry only (npm install, --prefer-offline).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { newApiKey } from "../src/auth/api-keys";
import { buildWorker } from "./build";
import { type LocalWorker, startLocalWorker } from "./local-worker";

const ROOT = resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { keep: { type: "boolean", default: false } } });

const PROGRAM = `import { createQuizClient, type components } from "@quiz-api/client";

declare const process: { argv: string[]; exitCode?: number };
const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

// The requests' X-D1-Bookmark headers, to check that the client echoes the bookmark it received.
const sentBookmarks: (string | null)[] = [];
const client = createQuizClient({
  baseUrl,
  apiKey,
  fetch: (request: Request) => {
    sentBookmarks.push(request.headers.get("x-d1-bookmark"));
    return fetch(request);
  },
});

// Only the title: description, settings and questions have defaults, so they are optional here.
const title = \`Smoke \${Date.now()}\`;
const created = await client.POST("/v1/quizzes", { body: { title } });
check(created.response.status === 201, \`POST /v1/quizzes → \${created.response.status}: \${JSON.stringify(created.error)}\`);
check(created.data, "POST /v1/quizzes: no body");
const quiz: components["schemas"]["Quiz"] = created.data;
check(quiz.title === title && quiz.questions === 0, \`unexpected quiz: \${JSON.stringify(quiz)}\`);

const listed = await client.GET("/v1/quizzes", { params: { query: { limit: 10 } } });
check(listed.response.status === 200 && listed.data, \`GET /v1/quizzes → \${listed.response.status}\`);
const ids = listed.data.quizzes.map((q) => q.id);
const written = created.response.headers.get("x-d1-bookmark");
check(written && sentBookmarks[0] === null && sentBookmarks[1] === written, \`bookmark not echoed: \${JSON.stringify({ written, sentBookmarks })}\`);
check(ids.includes(quiz.id), \`GET /v1/quizzes does not list \${quiz.id}: \${JSON.stringify(ids)}\`);

// A wrong credential is refused (the header really is the one sent).
const refused = await createQuizClient({ baseUrl, apiKey: "qz_live_wrong" }).GET("/v1/quizzes");
check(refused.response.status === 401, \`wrong key → \${refused.response.status}\`);

console.log(\`created \${quiz.id} ("\${quiz.title}"), listed \${ids.length} quiz(zes) including it with its bookmark, wrong key → 401\`);
`;

const started = performance.now();
const log = (line: string) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

function run(command: string, args: string[], cwd: string) {
  execFileSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "quiz-client-smoke-"));
  let worker: LocalWorker | undefined;
  try {
    const project = join(dir, "project");
    const typescript = JSON.parse(readFileSync(join(ROOT, "node_modules/typescript/package.json"), "utf8")).version as string;
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify(
        {
          name: "quiz-client-smoke",
          private: true,
          type: "module",
          dependencies: { "@quiz-api/client": `file:${join(ROOT, "clients/typescript")}`, typescript },
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      `${JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2022", "DOM"],
            types: [],
            outDir: "out",
          },
          files: ["main.ts"],
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(join(project, "main.ts"), PROGRAM);
    log(`npm install in ${project} (@quiz-api/client from the folder, typescript ${typescript})`);
    run("npm", ["install", "--install-links", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], project);
    log("tsc --strict (nodenext): typecheck and compile main.ts");
    run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], project);

    log("building the worker and serving it under Miniflare (throw-away D1/KV)");
    const { outfile } = await buildWorker({ outdir: join(dir, "dist"), minify: false });
    worker = await startLocalWorker({ scriptPath: outfile, persistRoot: join(dir, "state"), quiet: true });
    const { key, row } = await newApiKey({ name: "client smoke", scopes: ["admin"], expiresAt: null });
    await (await worker.mf.getD1Database("DB"))
      .prepare("INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(row.id, row.name, row.keyHash, row.prefix, JSON.stringify(row.scopes), row.createdAt)
      .run();
    log(`running the program against ${worker.url}`);
    run(process.execPath, [join(project, "out/main.js"), worker.url, key], project);
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
