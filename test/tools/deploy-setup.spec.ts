// npm run deploy:setup: the commands it prints for each environment against wrangler's own reading
// of wrangler.toml (every database, namespace and queue, dead-letter queues included, with the
// environment's own names), environments that share nothing, and a run against a wrangler that
// answers as wrangler 4.86 does: the ids it prints land on the right lines, nothing else moves.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deployedEnvironments, environmentResources, readWranglerToml } from "../../scripts/deploy-env";
import { findPlaceholders } from "../../scripts/deploy-guard";
import { parseCreatedId, parseExistingId, runSetup, setupPlan, type WranglerRun } from "../../scripts/deploy-setup";
import { ROOT, shippedText, tomlWith, WRANGLER_TOML, wranglerView } from "./deploy-fixtures";

const ENVIRONMENTS = ["staging", "production"];

function dryRun(env: string): string {
  return execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/deploy-setup.ts"), "--env", env, "--dry-run"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CLOUDFLARE_ENV: "" },
  });
}

/** The `npx wrangler …` lines of the output, without their comments. */
const commandsOf = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("$ npx wrangler "))
    .map((line) => line.replace(/^\$ npx wrangler /, "").replace(/\s+#.*$/, ""));

describe("wrangler.toml's environments", () => {
  it("are the ones the deploy scripts know", async () => {
    expect(deployedEnvironments((await readWranglerToml(WRANGLER_TOML)).raw)).toEqual(ENVIRONMENTS);
  });

  it("share no worker, database, namespace, queue or bucket (wrangler's reading)", () => {
    const [staging, production] = ENVIRONMENTS.map((env) => wranglerView(env));
    if (!staging || !production) throw new Error("two environments expected");
    const overlap = (a: string[], b: string[]) => a.filter((x) => x !== "" && b.includes(x));
    expect(overlap([staging.worker], [production.worker])).toEqual([]);
    expect(
      overlap(
        staging.d1.map((d) => d.name),
        production.d1.map((d) => d.name),
      ),
    ).toEqual([]);
    expect(
      overlap(
        staging.d1.map((d) => d.id),
        production.d1.map((d) => d.id),
      ),
    ).toEqual([]);
    expect(
      overlap(
        staging.kv.map((k) => k.id),
        production.kv.map((k) => k.id),
      ),
    ).toEqual([]);
    expect(overlap(staging.queues, production.queues)).toEqual([]);
    expect(overlap(staging.r2, production.r2)).toEqual([]);
    // Each environment's queues carry its worker's name, so a glance tells them apart.
    for (const env of ENVIRONMENTS) {
      const view = wranglerView(env);
      for (const queue of view.queues) expect(queue.startsWith(`${view.worker}-`)).toBe(true);
    }
  });
});

describe.each(ENVIRONMENTS)("npm run deploy:setup -- --env %s --dry-run", (env) => {
  const before = shippedText();
  const output = dryRun(env);
  const commands = commandsOf(output);
  const view = wranglerView(env);

  it("creates every D1 database, KV namespace, queue and bucket of the environment, by its own names", () => {
    const creates = commands.filter((c) => / create /.test(c));
    expect(creates).toEqual([
      ...view.d1.map((d) => `d1 create ${d.name} --env ${env}`),
      ...view.kv.map((k) => `kv namespace create quiz-api-${k.binding.toLowerCase()} --env ${env}`),
      ...view.queues.map((q) => `queues create ${q} --env ${env}`),
      ...view.r2.map((b) => `r2 bucket create ${b} --env ${env}`),
    ]);
    // Dead-letter queues included: every queue a consumer dead-letters into is created.
    expect(view.queues.filter((q) => q.endsWith("-dlq")).length).toBeGreaterThan(0);
  });

  it("names no resource of another environment, and passes --env to every command", () => {
    const others = ENVIRONMENTS.filter((e) => e !== env).map((e) => wranglerView(e));
    for (const other of others)
      for (const name of [...other.d1.map((d) => d.name), ...other.queues, ...other.r2])
        for (const command of commands) expect(command.split(" ")).not.toContain(name);
    for (const command of commands) expect(command).toMatch(new RegExp(`--env ${env}(\\s|$)`));
  });

  it("sets the webhook sealing key only when the worker has none, and says what comes next", () => {
    expect(commands).toContain(`secret list --env ${env} --format json`);
    expect(commands).toContain(`secret put WEBHOOK_SECRET_KEY --env ${env}`);
    expect(output).toContain(`npm run db:migrate:remote -- --env ${env}`);
    expect(output).toContain(`npm run deploy -- --env ${env}`);
    expect(output).toMatch(/ISSUER.*names a placeholder host/);
  });

  it("changes nothing", () => {
    expect(shippedText()).toBe(before);
  });
});

// What wrangler 4.86 prints (src/d1/create.ts, src/kv/index.ts, src/queues/cli/commands/create.ts).
const D1_CREATED = (name: string, id: string) => `\u001b[32m✅ Successfully created DB '${name}' in region WEUR\u001b[0m
Created your new D1 database.

To access your new D1 Database in your Worker, add the following snippet to your configuration file in the "staging" environment:
[[d1_databases]]
binding = "quiz_api_staging"
database_name = "${name}"
database_id = "${id}"
`;
const KV_CREATED = (title: string, id: string) => `Resource location: remote
🌀 Creating namespace with title "${title}"
✨ Success!
To access your new KV Namespace in your Worker, add the following snippet to your configuration file in the "staging" environment:
[[kv_namespaces]]
binding = "quiz_api_kv"
id = "${id}"
`;

describe("reading the ids wrangler prints", () => {
  const uuid = "6f0c3d7e-8a1b-4c2d-9e3f-0a1b2c3d4e5f";
  const hex32 = "0f2b6c8e9a1d4e7f8b3c5d6e7f8a9b0c";

  it("from its TOML snippets, colours and all", () => {
    expect(parseCreatedId("d1", D1_CREATED("quiz-api-staging", uuid))).toBe(uuid);
    expect(parseCreatedId("kv", KV_CREATED("staging-quiz-api-kv", hex32))).toBe(hex32);
  });

  it("from JSON snippets (a wrangler.json project), and upper case", () => {
    expect(parseCreatedId("d1", `{ "d1_databases": [ { "binding": "DB", "database_id": "${uuid.toUpperCase()}" } ] }`)).toBe(
      uuid,
    );
    expect(parseCreatedId("kv", `{ "kv_namespaces": [ { "binding": "KV", "id": "${hex32}" } ] }`)).toBe(hex32);
  });

  it("not a preview_id, and not a guess between two ids", () => {
    expect(parseCreatedId("kv", `preview_id = "${hex32}"\nid = "${"a".repeat(32)}"`)).toBe("a".repeat(32));
    expect(parseCreatedId("d1", `created ${uuid} and ${uuid.replace("6f", "7f")}`)).toBeUndefined();
    expect(parseCreatedId("d1", "✘ [ERROR] A request to the Cloudflare API failed.")).toBeUndefined();
  });

  it("of a resource that exists already, from d1 info and kv namespace list", () => {
    expect(parseExistingId("d1", `{ "uuid": "${uuid}", "name": "quiz-api-staging" }`, "")).toBe(uuid);
    const list = JSON.stringify([
      { id: "1".repeat(32), title: "production-quiz-api-kv" },
      { id: hex32, title: "staging-quiz-api-kv" },
    ]);
    expect(parseExistingId("kv", list, "staging-quiz-api-kv")).toBe(hex32);
    expect(parseExistingId("kv", list, "other")).toBeUndefined();
  });
});

describe("npm run deploy:setup -- --env staging against wrangler", () => {
  const uuid = "6f0c3d7e-8a1b-4c2d-9e3f-0a1b2c3d4e5f";
  const hex32 = "0f2b6c8e9a1d4e7f8b3c5d6e7f8a9b0c";

  /** A wrangler that answers each command as 4.86 does; `exists` names what is there already. */
  function fakeWrangler(exists: string[] = []) {
    const calls: { args: string[]; input?: string }[] = [];
    const answer = (args: string[], input?: string): WranglerRun => {
      calls.push({ args, input });
      const [group, verb, name] = args[0] === "kv" ? [args[0], args[2], args[3]] : args;
      if (verb === "create" && exists.includes(name ?? ""))
        return { status: 1, output: `✘ [ERROR] A queue or database named ${name} already exists. [code: 11009]` };
      if (group === "d1" && verb === "create") return { status: 0, output: D1_CREATED(name ?? "", uuid) };
      if (group === "d1" && verb === "info") return { status: 0, output: JSON.stringify({ uuid, name }) };
      if (group === "kv" && verb === "create") return { status: 0, output: KV_CREATED(`staging-${name}`, hex32) };
      if (group === "queues") return { status: 0, output: `🌀 Creating queue '${name}'\n✅ Created queue '${name}'` };
      if (group === "r2" && verb === "bucket")
        return {
          status: 0,
          output: `Creating bucket '${args[3]}'...\n✅ Created bucket '${args[3]}' with default storage class of Standard.`,
        };
      if (group === "secret" && verb === "list")
        return { status: 1, output: '✘ [ERROR] Worker "quiz-api-staging" (env: staging) not found.' };
      if (group === "secret" && verb === "put") return { status: 0, output: "✨ Success! Uploaded secret WEBHOOK_SECRET_KEY" };
      return { status: 1, output: `unexpected: wrangler ${args.join(" ")}` };
    };
    return { calls, answer };
  }

  async function setUp(exists: string[] = []) {
    const toml = await tomlWith(shippedText());
    const wrangler = fakeWrangler(exists);
    let written = toml.text;
    const printed: string[] = [];
    const done = runSetup(toml, "staging", {
      dryRun: false,
      wrangler: wrangler.answer,
      write: (text) => {
        written = text;
      },
      print: (line) => printed.push(line),
    });
    return { toml, calls: wrangler.calls, written, printed: printed.join("\n"), done };
  }

  it("writes the two ids into [env.staging], changing no other line", async () => {
    const { toml, written, done } = await setUp();
    expect(done).toBe(true);
    const before = toml.text.split("\n");
    const after = written.split("\n");
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([
      ['database_id = "00000000-0000-0000-0000-000000000001"', `database_id = "${uuid}"`],
      ['id = "00000000000000000000000000000001"', `id = "${hex32}"`],
    ]);
    const staging = environmentResources((await tomlWith(written)).raw, "staging");
    expect(staging.d1[0]?.id).toBe(uuid);
    expect(staging.kv[0]?.id).toBe(hex32);
    // Production is untouched.
    expect(environmentResources((await tomlWith(written)).raw, "production").d1[0]?.id).toBe(
      "00000000-0000-0000-0000-000000000002",
    );
  });

  it("creates every queue, then a random sealing key for a worker that has none", async () => {
    const { calls } = await setUp();
    const queues = calls.filter((c) => c.args[0] === "queues").map((c) => c.args[2]);
    expect(queues).toEqual(wranglerView("staging").queues);
    const put = calls.find((c) => c.args[0] === "secret" && c.args[1] === "put");
    expect(put?.args).toEqual(["secret", "put", "WEBHOOK_SECRET_KEY", "--env", "staging"]);
    expect(Buffer.from(put?.input ?? "", "base64")).toHaveLength(32);
  });

  it("leaves only the operator's values to the guard afterwards", async () => {
    const { written } = await setUp();
    const left = findPlaceholders(await tomlWith(written), "staging", { secrets: ["WEBHOOK_SECRET_KEY"] });
    expect(left.map((f) => f.what)).toEqual([
      expect.stringMatching(/^ISSUER = ".*<your-subdomain>.*" names a placeholder host$/),
    ]);
  });

  it("keeps what exists already, and finds the id of an existing database", async () => {
    const { written, done, printed, calls } = await setUp(["quiz-api-staging", "quiz-api-staging-events"]);
    expect(done).toBe(true);
    expect(calls.map((c) => c.args.slice(0, 3).join(" "))).toContain("d1 info quiz-api-staging");
    expect(written).toContain(`database_id = "${uuid}"`);
    expect(printed).toMatch(/exists already: kept/);
  });

  it("skips a database and a namespace that have ids on a second run", async () => {
    const { written } = await setUp();
    const plan = setupPlan(await tomlWith(written), "staging");
    expect(plan.skipped).toEqual([
      `D1 database quiz-api-staging (DB): has the id ${uuid}`,
      `KV namespace KV: has the id ${hex32}`,
    ]);
    const view = wranglerView("staging");
    expect(plan.steps.map((s) => s.args[0])).toEqual([...view.queues.map(() => "queues"), ...view.r2.map(() => "r2")]);
  });

  it("creates an R2 bucket an environment declares, in its jurisdiction", async () => {
    const bucket =
      '\n[[env.staging.r2_buckets]]\nbinding = "FILES"\nbucket_name = "quiz-api-staging-files"\njurisdiction = "eu"\n';
    const plan = setupPlan(await tomlWith(shippedText() + bucket), "staging");
    expect(plan.steps.at(-1)?.args).toEqual([
      "r2",
      "bucket",
      "create",
      "quiz-api-staging-files",
      "--jurisdiction",
      "eu",
      "--env",
      "staging",
    ]);
    const production = setupPlan(await tomlWith(shippedText() + bucket), "production");
    expect(production.steps.some((s) => s.args.includes("quiz-api-staging-files"))).toBe(false);
  });

  it("stops at a failure it does not understand", async () => {
    const toml = await tomlWith(shippedText());
    const printed: string[] = [];
    const done = runSetup(toml, "staging", {
      dryRun: false,
      wrangler: () => ({ status: 1, output: "✘ [ERROR] Authentication error [code: 10000]" }),
      write: () => {
        throw new Error("nothing should be written");
      },
      print: (line) => printed.push(line),
    });
    expect(done).toBe(false);
    expect(printed.filter((l) => l.startsWith("$ "))).toHaveLength(1);
  });
});
