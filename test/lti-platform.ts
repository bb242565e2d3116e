// vitest globalSetup (runs in Node, not in workerd): a loopback LTI 1.3 platform for test/lti/.
// The worker under test fetches its JWKS, asks its token endpoint for AGS tokens and posts
// scores to its line items over 127.0.0.1, as it would to an LMS; the tests drive it through
// control endpoints. Each test makes platforms of its own names under /p/<name>/:
//
//   POST /p/<name>/setup        { client_id, audience? }: a platform with one RS256 key
//   GET  /p/<name>/jwks         its public keys
//   POST /p/<name>/keys/rotate  a new current key (the old one stays in the JWKS)
//   POST /p/<name>/sign         { payload, key?: "current" | "stranger", kid? (null: none) }: an id_token
//   POST /p/<name>/tool-jwks    the tool's key set (the tests copy /.well-known/jwks.json here)
//   POST /p/<name>/token        the token endpoint: verifies the client assertion (RFC 7523)
//   POST /p/<name>/lineitems/<id>/scores   AGS scores: recorded with arrival time and in-flight count
//   POST /p/<name>/plan         how scores are answered: { status, retry_after?, first_per_user?, times?, delay_ms? }
//   GET  /p/<name>/log          { scores, tokens, max_in_flight, jwks_fetches }
//   POST /p/<name>/roster       the course's members and how they are served (RosterPlan): { memberships_url }
//   GET  /p/<name>/memberships  NRPS 2.0: a page of the membership container, Link rel="next" to the next
//   GET  /p/<name>/roster-log   { pages: [{ page, status, accept }], tokens_granted }
//
// The LMS side of the tool's own pages (docs/lti.md), in the functions under "The tool's pages"
// below: an OIDC authorization endpoint and a deep-linking return URL.
//
//   POST /p/<name>/launches     { payload, keep_nonce?, state? }: a staged launch → { hint }; the
//                               login_hint (and lti_message_hint) that names it at the authorization endpoint
//   GET  /p/<name>/auth         the OIDC authorization endpoint: checks the tool's request, signs the
//                               staged payload with the request's nonce and answers a page that
//                               posts id_token + state to redirect_uri (JSON with Accept: application/json)
//   POST /p/<name>/deep-link-return   the deep-linking return URL: verifies the JWT with jose
//                               against the tool's JWKS (tool_jwks_url, else the tool-jwks copy)
//   GET  /p/<name>/course?login=<url>  a course page of this LMS that frames the tool's login URL
//   POST /p/<name>/tool         { tool_jwks_url }: where the tool publishes its keys
//   GET  /p/<name>/tool-log     { authorizations, deep_links }
//
// startLoopbackPlatform() serves it outside vitest too (npm run dev:lms, the e2e tests).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, createRemoteJWKSet, exportJWK, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from "jose";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    ltiPlatformUrl: string;
  }
}

const SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
const SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";

interface Key {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: Record<string, unknown>;
}

interface Plan {
  status?: number;
  retry_after?: number;
  /** Only each user's first N scores get `status`. */
  first_per_user?: number;
  /** Only the next N scores get `status`. */
  times?: number;
  delay_ms?: number;
}

interface Platform {
  clientId: string;
  audience: string | undefined;
  keys: Key[];
  toolJwks: JSONWebKeySet;
  jtis: Set<string>;
  tokens: Map<string, number>;
  tokenLog: { at: number; ok: boolean; error?: string }[];
  scores: { lineitem: string; query: string; body: any; at: number; answered_at: number; in_flight: number; status: number }[];
  perUser: Map<string, number>;
  plan: Plan;
  inFlight: number;
  maxInFlight: number;
  jwksFetches: number;
  tool: ToolSide;
}

const platforms = new Map<string, Platform>();
let base = "";

async function newKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `platform-key-${crypto.randomUUID()}`;
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // A connection per request: workerd never reuses one that Node is closing ("Network connection lost").
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers }).end(JSON.stringify(body));
}

async function token(p: Platform, name: string, form: URLSearchParams): Promise<[number, unknown]> {
  const refuse = (error: string): [number, unknown] => {
    p.tokenLog.push({ at: Date.now(), ok: false, error });
    return [400, { error: "invalid_client", error_description: error }];
  };
  if (form.get("grant_type") !== "client_credentials") return refuse("grant_type");
  if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
    return refuse("assertion type");
  const scopes = form.get("scope")?.split(" ") ?? [];
  if (!scopes.includes(SCORE_SCOPE) && !scopes.includes(NRPS_SCOPE)) return refuse("scope");
  if (scopes.includes(NRPS_SCOPE) && rosters.get(name)?.plan.refuse_token) return refuse("roster scope not granted");
  try {
    const { payload } = await jwtVerify(form.get("client_assertion") ?? "", createLocalJWKSet(p.toolJwks), {
      algorithms: ["RS256"],
      issuer: p.clientId,
      subject: p.clientId,
      audience: p.audience ?? `${base}/p/${name}/token`,
    });
    if (typeof payload.jti !== "string" || p.jtis.has(payload.jti)) return refuse("jti missing or reused");
    if (typeof payload.exp !== "number" || typeof payload.iat !== "number" || payload.exp - payload.iat > 300)
      return refuse("assertion lives longer than 5 minutes");
    p.jtis.add(payload.jti);
  } catch (error) {
    return refuse(`assertion: ${String(error)}`);
  }
  const access = `at-${crypto.randomUUID()}`;
  p.tokens.set(access, Date.now() + 3600_000);
  if (scopes.includes(NRPS_SCOPE)) rosterTokenGranted(name, access);
  p.tokenLog.push({ at: Date.now(), ok: true });
  return [200, { access_token: access, token_type: "Bearer", expires_in: 3600, scope: SCORE_SCOPE }];
}

/** The status a score gets under the plan, counting it. */
function planned(p: Platform, userId: string): number {
  const seen = (p.perUser.get(userId) ?? 0) + 1;
  p.perUser.set(userId, seen);
  const { status, first_per_user, times } = p.plan;
  if (status === undefined) return 200;
  if (first_per_user !== undefined) return seen <= first_per_user ? status : 200;
  if (times !== undefined) {
    if (times <= 0) return 200;
    p.plan.times = times - 1;
  }
  return status;
}

async function score(p: Platform, req: IncomingMessage, body: string, lineitem: string, query: string, res: ServerResponse) {
  const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (!auth || (p.tokens.get(auth) ?? 0) < Date.now()) return json(res, 401, { error: "invalid token" });
  if (req.headers["content-type"] !== SCORE_TYPE) return json(res, 415, { error: "media type" });
  p.inFlight++;
  p.maxInFlight = Math.max(p.maxInFlight, p.inFlight);
  const parsed = JSON.parse(body);
  const entry = { lineitem, query, body: parsed, at: Date.now(), answered_at: 0, in_flight: p.inFlight, status: 0 };
  p.scores.push(entry);
  entry.status = planned(p, String(parsed.userId));
  if (p.plan.delay_ms) await new Promise((resolve) => setTimeout(resolve, p.plan.delay_ms));
  entry.answered_at = Date.now();
  p.inFlight--;
  const retry: Record<string, string> =
    entry.status === 429 && p.plan.retry_after !== undefined ? { "retry-after": String(p.plan.retry_after) } : {};
  json(res, entry.status, entry.status < 300 ? {} : { error: `planned ${entry.status}` }, retry);
}

async function handle(req: IncomingMessage, body: string, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", base);
  const [, root, name = "", action = "", ...rest] = url.pathname.split("/");
  if (root !== "p") return json(res, 404, {});
  if (action === "setup") {
    const input = JSON.parse(body) as { client_id: string; audience?: string };
    platforms.set(name, {
      clientId: input.client_id,
      audience: input.audience,
      keys: [await newKey()],
      toolJwks: { keys: [] },
      jtis: new Set(),
      tokens: new Map(),
      tokenLog: [],
      scores: [],
      perUser: new Map(),
      plan: {},
      inFlight: 0,
      maxInFlight: 0,
      jwksFetches: 0,
      tool: newToolSide(),
    });
    return json(res, 200, {
      issuer: `${base}/p/${name}`,
      jwks_url: `${base}/p/${name}/jwks`,
      token_url: `${base}/p/${name}/token`,
      auth_login_url: `${base}/p/${name}/auth`,
      deep_link_return_url: `${base}/p/${name}/deep-link-return`,
    });
  }
  const p = platforms.get(name);
  if (!p) return json(res, 404, { error: "no such platform" });
  if (action === "jwks") {
    p.jwksFetches++;
    return json(res, 200, { keys: p.keys.map((k) => k.publicJwk) });
  }
  if (action === "keys") {
    p.keys.unshift(await newKey());
    return json(res, 200, { kid: p.keys[0]?.kid });
  }
  if (action === "sign") {
    const input = JSON.parse(body) as { payload: Record<string, unknown>; key?: "current" | "stranger"; kid?: string | null };
    const current = p.keys[0] as Key;
    const key = input.key === "stranger" ? await newKey() : current;
    // kid null: a header without one (a known-bad launch of the certification).
    const kid = input.kid === null ? {} : { kid: input.kid ?? current.kid };
    const idToken = await new SignJWT(input.payload)
      .setProtectedHeader({ alg: "RS256", typ: "JWT", ...kid })
      .sign(key.privateKey);
    return json(res, 200, { id_token: idToken });
  }
  if (action === "tool-jwks") {
    p.toolJwks = JSON.parse(body) as JSONWebKeySet;
    return json(res, 200, {});
  }
  if (action === "token") {
    p.inFlight++;
    p.maxInFlight = Math.max(p.maxInFlight, p.inFlight);
    const [status, answer] = await token(p, name, new URLSearchParams(body));
    p.inFlight--;
    return json(res, status, answer);
  }
  if (action === "lineitems" && rest[1] === "scores" && req.method === "POST")
    return score(p, req, body, rest[0] ?? "", url.search, res);
  if (action === "plan") {
    p.plan = JSON.parse(body) as Plan;
    p.perUser.clear();
    return json(res, 200, {});
  }
  if (action === "log")
    return json(res, 200, { scores: p.scores, tokens: p.tokenLog, max_in_flight: p.maxInFlight, jwks_fetches: p.jwksFetches });
  if (action === "roster" || action === "memberships" || action === "roster-log")
    return rosterAction(p, name, action, req, url, body, res);
  if (await handleToolSide(p, name, req, url, body, res)) return;
  return json(res, 404, {});
}

/** Serves the platform on 127.0.0.1 (`host` names it in its URLs: e.g. localhost, another site than the tool's 127.0.0.1). */
export async function startLoopbackPlatform(options: { port?: number; host?: string } = {}) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(req, Buffer.concat(chunks).toString("utf8"), res).catch((error) => json(res, 500, { error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  base = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export default async function setup(project: TestProject) {
  const platform = await startLoopbackPlatform();
  project.provide("ltiPlatformUrl", platform.url);
  return platform.close;
}

// ---- The tool's pages: the platform's OIDC authorization endpoint and deep-linking return URL ----

interface StagedLaunch {
  payload: Record<string, unknown>;
  /** Sign the payload's own nonce instead of the tool's (a known-bad launch). */
  keepNonce: boolean;
  /** Post this state instead of the tool's. */
  state: string | undefined;
}

interface ToolSide {
  staged: Map<string, StagedLaunch>;
  toolJwksUrl: string | undefined;
  authorizations: { query: Record<string, string>; ok: boolean; error?: string }[];
  deepLinks: { ok: boolean; error?: string; header?: unknown; payload?: Record<string, unknown> }[];
}

const newToolSide = (): ToolSide => ({ staged: new Map(), toolJwksUrl: undefined, authorizations: [], deepLinks: [] });

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", connection: "close" }).end(body);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** The form_post answer of an OIDC authorization endpoint: a page that posts itself to redirect_uri. */
function autoPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html><html lang="en"><head><title>Signing in</title></head><body><form method="post" action="${escapeHtml(action)}">${inputs}<button type="submit">Continue</button></form><script>document.forms[0].submit()</script></body></html>`;
}

/** GET /p/<name>/auth: the checks an LMS makes of the tool's authentication request (LTI Core 1.3 §5.1.1.2), then the signed launch. */
async function authorize(p: Platform, req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
  const query = Object.fromEntries(url.searchParams);
  const refuse = (error: string) => {
    p.tool.authorizations.push({ query, ok: false, error });
    return json(res, 400, { error });
  };
  const expected: Record<string, string> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: p.clientId,
  };
  for (const [param, value] of Object.entries(expected)) if (query[param] !== value) return refuse(`${param} must be ${value}`);
  for (const param of ["redirect_uri", "login_hint", "state", "nonce"]) if (!query[param]) return refuse(`${param} missing`);
  const staged = p.tool.staged.get(query.login_hint ?? "");
  if (!staged) return refuse("login_hint names no staged launch");
  if (query.lti_message_hint !== query.login_hint) return refuse("lti_message_hint is not the one the login initiation sent");
  p.tool.authorizations.push({ query, ok: true });
  const current = p.keys[0] as Key;
  // A staged launch without times is signed as of now, so a link to it (npm run dev:lms) works whenever it is opened.
  const now = Math.floor(Date.now() / 1000);
  const timed = { iat: now, exp: now + 300, ...staged.payload };
  const payload = staged.keepNonce ? timed : { ...timed, nonce: query.nonce };
  const idToken = await new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: current.kid })
    .sign(current.privateKey);
  const fields = { id_token: idToken, state: staged.state ?? (query.state as string) };
  if (req.headers.accept === "application/json") return json(res, 200, { ...fields, redirect_uri: query.redirect_uri });
  return html(res, 200, autoPost(query.redirect_uri as string, fields));
}

/** POST /p/<name>/deep-link-return: the LtiDeepLinkingResponse, verified as an LMS verifies it. */
async function deepLinkReturn(p: Platform, name: string, body: string, res: ServerResponse): Promise<void> {
  const jwt = new URLSearchParams(body).get("JWT") ?? "";
  try {
    const keys = p.tool.toolJwksUrl ? createRemoteJWKSet(new URL(p.tool.toolJwksUrl)) : createLocalJWKSet(p.toolJwks);
    const { payload, protectedHeader } = await jwtVerify(jwt, keys, {
      algorithms: ["RS256"],
      issuer: p.clientId,
      audience: `${base}/p/${name}`,
      maxTokenAge: 300,
    });
    p.tool.deepLinks.push({ ok: true, header: protectedHeader, payload });
    const items = (payload["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"] as { title?: string }[]) ?? [];
    return html(
      res,
      200,
      `<!doctype html><html lang="en"><head><title>Deep linking received</title></head><body><h1 id="received">Received ${items.length} item(s)</h1><ul>${items.map((i) => `<li>${escapeHtml(String(i.title))}</li>`).join("")}</ul></body></html>`,
    );
  } catch (error) {
    p.tool.deepLinks.push({ ok: false, error: String(error) });
    return json(res, 400, { error: String(error) });
  }
}

/** GET /p/<name>/course?login=<url>: a course page of this LMS showing the tool in a frame. */
function course(url: URL, res: ServerResponse): void {
  const login = url.searchParams.get("login") ?? "about:blank";
  html(
    res,
    200,
    `<!doctype html><html lang="en"><head><title>Course</title></head><body><h1>Course page</h1><iframe id="tool" title="Quiz" src="${escapeHtml(login)}" width="900" height="600"></iframe></body></html>`,
  );
}

// ——— Names and Role Provisioning Services 2.0 (the roster) ———

const NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";
const NRPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";

interface RosterMember {
  user_id: string;
  roles: string[];
  status?: "Active" | "Inactive" | "Deleted";
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

interface RosterPlan {
  /** The members, page by page. */
  pages?: RosterMember[][];
  /** Instead of `pages`: this many pages of `per_page` generated members (`gen-<page>-<i>`). */
  generate?: { pages: number; per_page: number };
  /** Pages (1-based) answered with `status`, the first `times` times they are asked (every time without). */
  fail?: { page: number; status: number; times?: number; retry_after?: number };
  /** This page (1-based) is answered with a body over 1 MiB. */
  oversize_page?: number;
  /** The token endpoint refuses the roster scope. */
  refuse_token?: boolean;
  /** The next link of this page (1-based) points to another origin. */
  foreign_next?: number;
  /** Each page is answered this much later. */
  delay_ms?: number;
}

interface Roster {
  plan: RosterPlan;
  failed: number;
  tokens: Set<string>;
  log: { page: number; status: number; accept: string }[];
}

const rosters = new Map<string, Roster>();

function rosterTokenGranted(name: string, access: string): void {
  rosters.get(name)?.tokens.add(access);
}

function rosterPage(plan: RosterPlan, page: number): RosterMember[] | undefined {
  if (plan.generate) {
    if (page > plan.generate.pages) return undefined;
    return Array.from({ length: plan.generate.per_page }, (_, i) => ({
      user_id: `gen-${page}-${i}`,
      roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
    }));
  }
  return plan.pages?.[page - 1];
}

function pageCount(plan: RosterPlan): number {
  return plan.generate ? plan.generate.pages : (plan.pages?.length ?? 0);
}

async function rosterAction(
  p: Platform,
  name: string,
  action: string,
  req: IncomingMessage,
  url: URL,
  body: string,
  res: ServerResponse,
): Promise<void> {
  if (action === "roster") {
    const previous = rosters.get(name);
    rosters.set(name, { plan: JSON.parse(body) as RosterPlan, failed: 0, tokens: previous?.tokens ?? new Set(), log: [] });
    return json(res, 200, { memberships_url: `${base}/p/${name}/memberships?page=1` });
  }
  const roster = rosters.get(name);
  if (!roster) return json(res, 404, { error: "no roster" });
  if (action === "roster-log") return json(res, 200, { pages: roster.log, tokens_granted: roster.tokens.size });
  const page = Number(url.searchParams.get("page") ?? "1");
  const accept = String(req.headers.accept ?? "");
  const answer = (status: number, payload: string, headers: Record<string, string> = {}) => {
    roster.log.push({ page, status, accept });
    res.writeHead(status, { "content-type": NRPS_TYPE, connection: "close", ...headers }).end(payload);
  };
  const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  // A token of the platform, granted for the roster scope (a score token is not enough).
  if (!auth || (p.tokens.get(auth) ?? 0) < Date.now() || !roster.tokens.has(auth))
    return answer(401, JSON.stringify({ error: "invalid token" }));
  if (accept !== NRPS_TYPE) return answer(406, JSON.stringify({ error: "not acceptable" }));
  if (roster.plan.delay_ms) await new Promise((resolve) => setTimeout(resolve, roster.plan.delay_ms));
  const { fail } = roster.plan;
  if (fail && fail.page === page && (fail.times === undefined || roster.failed < fail.times)) {
    roster.failed++;
    const headers: Record<string, string> = fail.retry_after === undefined ? {} : { "retry-after": String(fail.retry_after) };
    return answer(fail.status, JSON.stringify({ error: `planned ${fail.status}` }), headers);
  }
  const members = rosterPage(roster.plan, page);
  if (!members) return answer(404, JSON.stringify({ error: "no such page" }));
  const container = { id: `${base}/p/${name}/memberships`, context: { id: "course-1", title: "Biology" }, members };
  let payload = JSON.stringify(container);
  if (roster.plan.oversize_page === page) payload = JSON.stringify({ ...container, padding: "x".repeat(1024 * 1024) });
  const links = [`<${base}/p/${name}/memberships?diff=1>; rel="differences"`];
  if (page < pageCount(roster.plan)) {
    const host = roster.plan.foreign_next === page ? base.replace("127.0.0.1", "localhost") : base;
    links.push(`<${host}/p/${name}/memberships?page=${page + 1}>; title="page, next"; rel="next"`);
  }
  return answer(200, payload, { link: links.join(", ") });
}

/** The routes of the tool's side; false when the action is none of them. */
async function handleToolSide(
  p: Platform,
  name: string,
  req: IncomingMessage,
  url: URL,
  body: string,
  res: ServerResponse,
): Promise<boolean> {
  const action = url.pathname.split("/")[3];
  if (action === "launches" && req.method === "POST") {
    const input = JSON.parse(body) as { payload: Record<string, unknown>; keep_nonce?: boolean; state?: string };
    const hint = `hint-${crypto.randomUUID()}`;
    p.tool.staged.set(hint, { payload: input.payload, keepNonce: input.keep_nonce === true, state: input.state });
    json(res, 200, { hint });
  } else if (action === "auth" && req.method === "GET") await authorize(p, req, url, res);
  else if (action === "deep-link-return" && req.method === "POST") await deepLinkReturn(p, name, body, res);
  else if (action === "course" && req.method === "GET") course(url, res);
  else if (action === "tool" && req.method === "POST") {
    p.tool.toolJwksUrl = (JSON.parse(body) as { tool_jwks_url?: string }).tool_jwks_url;
    json(res, 200, {});
  } else if (action === "tool-log") json(res, 200, { authorizations: p.tool.authorizations, deep_links: p.tool.deepLinks });
  else return false;
  return true;
}
