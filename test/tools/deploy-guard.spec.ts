// The deploy guard: the shipped wrangler.toml is refused for each environment with every
// placeholder named at its line; a filled-in copy passes; each kind of placeholder, missing secret,
// local-only value and shared resource is caught on its own; `npm run deploy` refuses without
// calling wrangler.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setTableValue } from "../../scripts/deploy-env";
import { type Finding, findPlaceholders, isPlaceholderHost } from "../../scripts/deploy-guard";
import { filledIn, ROOT, shippedText, tomlWith } from "./deploy-fixtures";

const SECRETS = { secrets: ["WEBHOOK_SECRET_KEY"], processEnv: {} };
const ENVIRONMENTS = ["staging", "production"];

/** The text of the line a finding points at (`wrangler.toml:141 …`). */
function lineAt(text: string, finding: Finding): string {
  const line = /^wrangler\.toml:(\d+) /.exec(finding.where)?.[1];
  if (!line) throw new Error(`no line in ${finding.where}`);
  return text.split("\n")[Number(line) - 1] ?? "";
}

describe.each(ENVIRONMENTS)("the shipped wrangler.toml, --env %s", (env) => {
  it("is refused, each placeholder named at its line", async () => {
    const toml = await tomlWith(shippedText());
    const findings = findPlaceholders(toml, env, SECRETS);
    expect(findings.map((f) => f.kind)).toEqual(["id", "id", "var"]);
    const [d1, kv, issuer] = findings as [Finding, Finding, Finding];
    expect(d1.where).toMatch(new RegExp(`^wrangler\\.toml:\\d+ \\[\\[env\\.${env}\\.d1_databases\\]\\] database_id$`));
    expect(lineAt(toml.text, d1)).toMatch(/^database_id = "0{8}-0{4}-0{4}-0{4}-0{11}\d"$/);
    expect(d1.fix).toBe(`npm run deploy:setup -- --env ${env} (creates it and writes its id)`);
    expect(kv.where).toMatch(new RegExp(`\\[\\[env\\.${env}\\.kv_namespaces\\]\\] id$`));
    expect(lineAt(toml.text, kv)).toMatch(/^id = "0{31}\d"$/);
    expect(issuer.where).toMatch(new RegExp(`\\[env\\.${env}\\.vars\\] ISSUER$`));
    expect(lineAt(toml.text, issuer)).toMatch(/^ISSUER = "https:\/\/quiz-api.*<your-subdomain>\.workers\.dev"$/);
  });

  it("passes once filled in (ids, origins) with the secret set", async () => {
    expect(findPlaceholders(await tomlWith(filledIn()), env, SECRETS)).toEqual([]);
  });
});

describe("refused", () => {
  const one = async (text: string, env = "production", context: Parameters<typeof findPlaceholders>[2] = SECRETS) =>
    findPlaceholders(await tomlWith(text), env, context);

  it("without an environment: the top level is local development only", async () => {
    const [finding, ...rest] = await one(filledIn(), "");
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ kind: "environment", where: "wrangler.toml (top level)" });
    expect(finding?.fix).toBe("pass --env staging or --env production");
    expect(await one(filledIn(), "qa")).toEqual([expect.objectContaining({ what: "there is no [env.qa]" })]);
  });

  it.each([
    ["https://quiz-api.example.workers.dev"],
    ["https://quiz.example.com"],
    ["https://quiz-api.<your-subdomain>.workers.dev"],
    ["http://localhost:8787"],
  ])("an ISSUER of %s", async (issuer) => {
    const text = filledIn().replace('ISSUER = "https://quiz-api.acme-quiz.workers.dev"', `ISSUER = "${issuer}"`);
    const findings = await one(text);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.what).toBe(`ISSUER = "${issuer}" names a placeholder host`);
  });

  it("any other var naming a placeholder host", async () => {
    const text = filledIn().replace(
      /(\[env\.production\.vars\][\s\S]*?)CORS_ALLOW_ORIGINS = ""/,
      '$1CORS_ALLOW_ORIGINS = "https://app.example.com"',
    );
    expect((await one(text)).map((f) => f.what)).toEqual([
      'CORS_ALLOW_ORIGINS = "https://app.example.com" names a placeholder host',
    ]);
  });

  it("an empty or missing id", async () => {
    const emptied = setTableValue(filledIn(), "env.production.kv_namespaces", { key: "binding", value: "KV" }, "id", "");
    expect((await one(emptied)).map((f) => f.what)).toEqual(["KV namespace KV has a placeholder id"]);
    const removed = filledIn().replace(
      /^database_id = "[0-9a-f-]+"\n(migrations_dir = "drizzle"\n\n\[\[env\.production\.kv)/m,
      "$1",
    );
    expect((await one(removed)).map((f) => f.what)).toEqual(["D1 database DB (quiz-api) has a placeholder id"]);
  });

  it("the webhook sealing key missing from the worker, or written as a plain var", async () => {
    expect(await one(filledIn(), "staging", { secrets: [], processEnv: {} })).toEqual([
      expect.objectContaining({
        kind: "secret",
        where: "the worker quiz-api-staging",
        what: "the secret WEBHOOK_SECRET_KEY is not set",
      }),
    ]);
    const asVar = filledIn().replace(/(\[env\.staging\.vars\]\n)/, '$1WEBHOOK_SECRET_KEY = "bG9jYWwtZGV2LW9ubHk="\n');
    const findings = await one(asVar, "staging");
    expect(findings.map((f) => f.what)).toEqual([
      "WEBHOOK_SECRET_KEY is a plain var, readable in the dashboard and in wrangler.toml",
    ]);
    expect(findings[0]?.where).toMatch(/^wrangler\.toml:\d+ \[env\.staging\.vars\] WEBHOOK_SECRET_KEY$/);
  });

  it("LTI's sealing key written as a plain var; never required (WEBHOOK_SECRET_KEY stands in for it)", async () => {
    expect(await one(filledIn(), "staging")).toEqual([]);
    const asVar = filledIn().replace(/(\[env\.staging\.vars\]\n)/, '$1LTI_SEALING_KEY = "bG9jYWwtZGV2LW9ubHk="\n');
    const findings = await one(asVar, "staging");
    expect(findings.map((f) => f.what)).toEqual([
      "LTI_SEALING_KEY is a plain var, readable in the dashboard and in wrangler.toml",
    ]);
    expect(findings[0]?.where).toMatch(/^wrangler\.toml:\d+ \[env\.staging\.vars\] LTI_SEALING_KEY$/);
  });

  it("loopback webhook targets, a local-only setting", async () => {
    const text = filledIn().replace(
      /(\[env\.staging\.vars\][\s\S]*?)WEBHOOK_URL_POLICY = "public"/,
      '$1WEBHOOK_URL_POLICY = "allow-loopback"',
    );
    expect((await one(text, "staging")).map((f) => f.kind)).toEqual(["var"]);
  });

  it("a custom domain left at the example", async () => {
    const text = filledIn().replace('# routes = [{ pattern = "quiz.example.com"', 'routes = [{ pattern = "quiz.example.com"');
    const findings = await one(text);
    expect(findings).toEqual([
      expect.objectContaining({ kind: "route", what: 'the route "quiz.example.com" is a placeholder host' }),
    ]);
    expect(findings[0]?.where).toMatch(/^wrangler\.toml:\d+ \[env\.production\] routes$/);
  });

  it("a queue, database or namespace of another environment", async () => {
    const text = filledIn()
      .replace('queue = "quiz-api-staging-jobs"', 'queue = "quiz-api-jobs"')
      .replace(/(\[\[env\.staging\.d1_databases\]\][\s\S]*?database_name = )"quiz-api-staging"/, '$1"quiz-api"');
    const findings = await one(text, "staging");
    expect(findings.map((f) => f.what)).toEqual(['both use the D1 database "quiz-api"', 'both use the queue "quiz-api-jobs"']);
    expect(findings[0]?.where).toBe("wrangler.toml [env.staging] and [env.production]");
  });

  it("an empty Cloudflare credential (a CI secret never added)", async () => {
    const findings = await one(filledIn(), "staging", {
      secrets: ["WEBHOOK_SECRET_KEY"],
      processEnv: { CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_ACCOUNT_ID: "0123" },
    });
    expect(findings.map((f) => f.where)).toEqual(["the environment variable CLOUDFLARE_API_TOKEN"]);
  });
});

describe("isPlaceholderHost", () => {
  it.each([
    "https://quiz-api.example.workers.dev",
    "https://example.workers.dev",
    "https://api.example.com/",
    "quiz.example.org",
    "https://quiz.test",
    "https://quiz.invalid",
    "http://localhost:8787",
    "https://<your-domain>",
    "https://CHANGEME.acme.io",
  ])("%s is one", (value) => {
    expect(isPlaceholderHost(value)).toBe(true);
  });

  it.each(["https://quiz-api.acme-quiz.workers.dev", "https://quiz.acme.io", "https://examples.io", "", "info", "30,120,600"])(
    "%s is not",
    (value) => {
      expect(isPlaceholderHost(value)).toBe(false);
    },
  );
});

describe("npm run deploy", () => {
  const deploy = (args: string[]) => {
    try {
      execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts/deploy.ts"), ...args], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: "pipe",
        env: { ...process.env, CLOUDFLARE_ENV: "" },
      });
      return { status: 0, stderr: "" };
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      return { status: failed.status, stderr: failed.stderr };
    }
  };

  it("refuses the shipped file before calling wrangler, naming each placeholder", () => {
    const { status, stderr } = deploy(["--env", "staging"]);
    expect(status).toBe(1);
    expect(stderr).toContain("3 thing(s) stand in the way of deploying [env.staging]:");
    expect(stderr).toMatch(
      /wrangler\.toml:\d+ \[\[env\.staging\.d1_databases\]\] database_id: D1 database DB \(quiz-api-staging\)/,
    );
    expect(stderr).toMatch(/wrangler\.toml:\d+ \[\[env\.staging\.kv_namespaces\]\] id: KV namespace KV/);
    expect(stderr).toMatch(/wrangler\.toml:\d+ \[env\.staging\.vars\] ISSUER: ISSUER = ".*" names a placeholder host/);
    expect(stderr).toContain("Nothing was deployed");
  });

  it("refuses without --env", () => {
    const { status, stderr } = deploy([]);
    expect(status).toBe(1);
    expect(stderr).toContain("no environment chosen: the top level is local development only");
  });
});
