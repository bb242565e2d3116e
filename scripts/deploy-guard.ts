// What must not reach a deploy: placeholder values left in an environment of wrangler.toml, a
// secret missing from the worker or written as a plain var, a local-only setting, a resource shared
// with another environment, an empty Cloudflare credential. findPlaceholders names each one and
// where it is; scripts/deploy.ts refuses to deploy while it finds any.
import { deployedEnvironments, environmentResources, isPlaceholderId, lineOf, place, type WranglerToml } from "./deploy-env";

/** The worker's secrets without which part of the API answers 503 (webhook endpoints, here). */
export const REQUIRED_SECRETS = ["WEBHOOK_SECRET_KEY"] as const;
/** Secrets a deployment may set: LTI_SEALING_KEY seals LTI's keys, which WEBHOOK_SECRET_KEY seals without it (docs/deploying.md). */
const OPTIONAL_SECRETS = ["LTI_SEALING_KEY"] as const;

export interface Finding {
  /** What kind of thing: `npm run deploy:setup` puts ids and secrets right; the rest is the operator's. */
  kind: "environment" | "id" | "var" | "secret" | "route" | "shared" | "credential";
  /** What is wrong, and where: `wrangler.toml:141 [[env.staging.d1_databases]] database_id`. */
  where: string;
  what: string;
  /** How to put it right. */
  fix: string;
}

export interface GuardContext {
  /** The worker's secret names (`wrangler secret list`), or undefined when they could not be read. */
  secrets?: readonly string[];
  /** The process environment, for CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID. */
  processEnv?: Record<string, string | undefined>;
}

/** RFC 2606's reserved names: example.com/.net/.org and the .example, .invalid, .test and .localhost domains. */
const RESERVED_HOST = /(^|\.)(example\.(com|net|org)|example|invalid|test|localhost)$/;

/**
 * A value that names a host no deployment is served from: a reserved one, `*.example.workers.dev`,
 * a loopback address, or one still to fill in (`<your-subdomain>`, "changeme").
 */
export function isPlaceholderHost(text: string): boolean {
  if (/<[^>]*>|\b(changeme|change-me|replace-me|your-(sub)?domain)\b/i.test(text)) return true;
  if (/(^|\/\/)(localhost|127\.\d+\.\d+\.\d+|\[::1\])(?=[:/]|$)/i.test(text)) return true;
  const hosts = [...text.matchAll(/([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi)].map((m) => (m[1] ?? "").toLowerCase());
  return hosts.some((host) => RESERVED_HOST.test(host) || /(^|\.)example\.workers\.dev$/.test(host));
}

const setupFix = (env: string) => `npm run deploy:setup -- --env ${env} (creates it and writes its id)`;

/** Every placeholder, missing secret and conflict that must be fixed before [env.<env>] is deployed. */
export function findPlaceholders(toml: WranglerToml, env: string | undefined, context: GuardContext = {}): Finding[] {
  const { raw, text } = toml;
  const file = toml.path.replace(/^.*[/\\]/, "");
  if (env === undefined || env === "")
    return [
      {
        kind: "environment",
        where: `${file} (top level)`,
        what: "no environment chosen: the top level is local development only (all-zero ids, loopback webhooks)",
        fix: `pass --env ${deployedEnvironments(raw).join(" or --env ")}`,
      },
    ];
  if (!raw.env?.[env])
    return [
      {
        kind: "environment",
        where: file,
        what: `there is no [env.${env}]`,
        fix: `pass --env ${deployedEnvironments(raw).join(" or --env ")}, or add [env.${env}]`,
      },
    ];
  const findings: Finding[] = [];
  const section = raw.env[env];
  const resources = environmentResources(raw, env);

  for (const db of resources.d1)
    if (isPlaceholderId(db.id))
      findings.push({
        kind: "id",
        where: place(file, text, `env.${env}.d1_databases`, "database_id", { key: "binding", value: db.binding }),
        what: `D1 database ${db.binding} (${db.name}) has a placeholder id${db.id ? ` "${db.id}"` : ""}`,
        fix: setupFix(env),
      });
  for (const kv of resources.kv)
    if (isPlaceholderId(kv.id))
      findings.push({
        kind: "id",
        where: place(file, text, `env.${env}.kv_namespaces`, "id", { key: "binding", value: kv.binding }),
        what: `KV namespace ${kv.binding} has a placeholder id${kv.id ? ` "${kv.id}"` : ""}`,
        fix: setupFix(env),
      });

  for (const [name, value] of Object.entries(section.vars ?? {})) {
    const where = place(file, text, `env.${env}.vars`, name);
    if (typeof value === "string" && isPlaceholderHost(value))
      findings.push({
        kind: "var",
        where,
        what: `${name} = "${value}" names a placeholder host`,
        fix:
          name === "ISSUER"
            ? `set the origin [env.${env}] is served from (its workers.dev address or custom domain), or "" for each request's own origin`
            : "set the real value",
      });
    if (([...REQUIRED_SECRETS, ...OPTIONAL_SECRETS] as readonly string[]).includes(name))
      findings.push({
        kind: "var",
        where,
        what: `${name} is a plain var, readable in the dashboard and in wrangler.toml`,
        fix: `remove it from [env.${env}.vars]; npm run deploy:setup -- --env ${env} sets it as a secret`,
      });
  }
  if (section.vars?.WEBHOOK_URL_POLICY === "allow-loopback")
    findings.push({
      kind: "var",
      where: place(file, text, `env.${env}.vars`, "WEBHOOK_URL_POLICY"),
      what: 'WEBHOOK_URL_POLICY = "allow-loopback" lets webhooks target the worker\'s own network: local development only',
      fix: 'set "public"',
    });
  for (const route of [section.route, ...(section.routes ?? [])].filter((r) => r !== undefined)) {
    const pattern = typeof route === "string" ? route : (route as { pattern?: string }).pattern;
    if (pattern && isPlaceholderHost(pattern))
      findings.push({
        kind: "route",
        where: `${file}${lineOf(text, `env.${env}`, "routes") ? `:${lineOf(text, `env.${env}`, "routes")}` : ""} [env.${env}] routes`,
        what: `the route "${pattern}" is a placeholder host`,
        fix: "name your own domain, or remove the route and keep workers_dev = true",
      });
  }

  if (context.secrets)
    for (const secret of REQUIRED_SECRETS)
      if (!context.secrets.includes(secret))
        findings.push({
          kind: "secret",
          where: `the worker ${resources.worker}`,
          what: `the secret ${secret} is not set`,
          fix: `npm run deploy:setup -- --env ${env} (sets a random one), or npx wrangler secret put ${secret} --env ${env}`,
        });

  findings.push(...sharedWithOtherEnvironments(toml, env));

  for (const name of ["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_ACCOUNT_ID"])
    if (context.processEnv?.[name]?.trim() === "")
      findings.push({
        kind: "credential",
        where: `the environment variable ${name}`,
        what: "is set but empty (a CI secret that was never added?)",
        fix: `set it, or unset it to use \`wrangler login\``,
      });
  return findings;
}

/** A database, namespace, queue, bucket or worker name that another environment of the file also uses. */
function sharedWithOtherEnvironments(toml: WranglerToml, env: string): Finding[] {
  const file = toml.path.replace(/^.*[/\\]/, "");
  const mine = environmentResources(toml.raw, env);
  const findings: Finding[] = [];
  for (const other of deployedEnvironments(toml.raw).filter((e) => e !== env)) {
    const theirs = environmentResources(toml.raw, other);
    const shared = (kind: string, a: (string | undefined)[], b: (string | undefined)[]) => {
      for (const name of a)
        if (name && !isPlaceholderId(name) && b.includes(name))
          findings.push({
            kind: "shared",
            where: `${file} [env.${env}] and [env.${other}]`,
            what: `both use the ${kind} "${name}"`,
            fix: `give [env.${env}] its own ${kind}`,
          });
    };
    shared("worker name", [mine.worker], [theirs.worker]);
    shared(
      "D1 database",
      mine.d1.map((d) => d.name),
      theirs.d1.map((d) => d.name),
    );
    shared(
      "D1 database id",
      mine.d1.map((d) => d.id),
      theirs.d1.map((d) => d.id),
    );
    shared(
      "KV namespace id",
      mine.kv.map((k) => k.id),
      theirs.kv.map((k) => k.id),
    );
    shared(
      "queue",
      mine.queues.map((q) => q.name),
      theirs.queues.map((q) => q.name),
    );
    shared(
      "R2 bucket",
      mine.r2.map((r) => r.name),
      theirs.r2.map((r) => r.name),
    );
  }
  return findings;
}

/** The refusal, one finding per line. */
export function formatFindings(env: string | undefined, findings: Finding[]): string {
  const lines = findings.map((f) => `  - ${f.where}: ${f.what}\n      → ${f.fix}`);
  return `${findings.length} thing(s) stand in the way of deploying ${env ? `[env.${env}]` : "this worker"}:\n${lines.join("\n")}\n`;
}
