import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { BASE, call } from "../support/call";

// The loopback LTI platform of test/lti-platform.ts, as the tests drive it: register it with the
// API, sign launches with its keys, tell it the tool's keys, plan how it answers scores, read what
// it received.

declare global {
  namespace Cloudflare {
    interface Env {
      /** The loopback LTI platform, http://127.0.0.1:<port>. */
      LTI_PLATFORM_URL: string;
    }
  }
}

export const SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
const LTI = "https://purl.imsglobal.org/spec/lti/claim";
export const CLAIM = {
  messageType: `${LTI}/message_type`,
  version: `${LTI}/version`,
  deploymentId: `${LTI}/deployment_id`,
  resourceLink: `${LTI}/resource_link`,
  context: `${LTI}/context`,
  roles: `${LTI}/roles`,
  custom: `${LTI}/custom`,
  ags: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
};
const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";

export interface ScoreRecord {
  lineitem: string;
  query: string;
  body: {
    userId: string;
    scoreGiven?: number;
    scoreMaximum?: number;
    activityProgress: string;
    gradingProgress: string;
    timestamp: string;
  };
  at: number;
  answered_at: number;
  in_flight: number;
  status: number;
}

interface PlatformLog {
  scores: ScoreRecord[];
  tokens: { at: number; ok: boolean; error?: string }[];
  max_in_flight: number;
  jwks_fetches: number;
}

let serial = 0;
export const unique = (label: string) => `${label}-${Date.now().toString(36)}-${serial++}`;

/** Asks the loopback platform (test/lti-platform.ts); T is what that path answers. */
export async function control<T = unknown>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.LTI_PLATFORM_URL}${path}`, {
    method: body === undefined ? "GET" : "POST",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return res.json() as Promise<T>;
}

/** The tool's key set, as platforms fetch it. */
export async function toolJwks() {
  const res = await exports.default.fetch(new Request(`${BASE}/.well-known/jwks.json`));
  expect(res.status).toBe(200);
  return res.json() as Promise<{ keys: Record<string, unknown>[] }>;
}

export interface TestPlatform {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  /** A line item URL of this platform (with `query` appended when given). */
  lineitem: (item: string, query?: string) => string;
  sign: (payload: Record<string, unknown>, options?: { key?: "current" | "stranger"; kid?: string | null }) => Promise<string>;
  rotate: () => Promise<void>;
  plan: (plan: {
    status?: number;
    retry_after?: number;
    first_per_user?: number;
    times?: number;
    delay_ms?: number;
  }) => Promise<void>;
  log: () => Promise<PlatformLog>;
  /** Copies the tool's current JWKS to the platform, as a platform fetching it would see it. */
  syncToolKeys: () => Promise<void>;
  claims: (overrides?: Record<string, unknown>) => Record<string, unknown>;
}

/** A loopback platform, registered with the API (admin key of the file). */
export async function newPlatform(options: { audience?: string } = {}): Promise<TestPlatform> {
  const name = unique("lms");
  const clientId = unique("client");
  const deploymentId = unique("deployment");
  const urls = await control<{ issuer: string; jwks_url: string; token_url: string; auth_login_url: string }>(
    `/p/${name}/setup`,
    {
      client_id: clientId,
      audience: options.audience,
    },
  );
  const res = await call("/v1/lti/platforms", {
    body: {
      issuer: urls.issuer,
      client_id: clientId,
      deployment_ids: [deploymentId],
      auth_token_url: urls.token_url,
      jwks_url: urls.jwks_url,
      auth_login_url: urls.auth_login_url,
      ...(options.audience ? { audience: options.audience } : {}),
    },
  });
  expect(res.status, res.text).toBe(201);
  const platform: TestPlatform = {
    id: res.json.id,
    name,
    issuer: urls.issuer,
    clientId,
    deploymentId,
    lineitem: (item, query) => `${urls.issuer}/lineitems/${item}${query ?? ""}`,
    sign: async (payload, opts = {}) => (await control<{ id_token: string }>(`/p/${name}/sign`, { payload, ...opts })).id_token,
    rotate: async () => void (await control(`/p/${name}/keys/rotate`, {})),
    plan: async (plan) => void (await control(`/p/${name}/plan`, plan)),
    log: () => control<PlatformLog>(`/p/${name}/log`),
    syncToolKeys: async () => void (await control(`/p/${name}/tool-jwks`, await toolJwks())),
    claims: (overrides = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return {
        iss: urls.issuer,
        aud: clientId,
        sub: unique("person"),
        exp: now + 300,
        iat: now,
        nonce: crypto.randomUUID(),
        name: "Ada Lovelace",
        email: `${unique("ada")}@school.example.org`,
        [CLAIM.messageType]: "LtiResourceLinkRequest",
        [CLAIM.version]: "1.3.0",
        [CLAIM.deploymentId]: deploymentId,
        [CLAIM.resourceLink]: { id: unique("link"), title: "Week 3 quiz" },
        [CLAIM.context]: { id: "course-1", label: "BIO 101", title: "Biology" },
        [CLAIM.roles]: [LEARNER],
        [CLAIM.ags]: { scope: [SCORE_SCOPE], lineitem: `${urls.issuer}/lineitems/${unique("item")}` },
        ...overrides,
      };
    },
  };
  await platform.syncToolKeys();
  return platform;
}

/** POST /v1/lti/launches with a token the platform signed. */
export async function launch(
  platform: TestPlatform,
  claims: Record<string, unknown>,
  options?: { key?: "current" | "stranger"; kid?: string },
) {
  return call("/v1/lti/launches", { body: { id_token: await platform.sign(claims, options) } });
}

/** vi.waitFor for queue work: a send takes a second or more, retries several. */
export const eventually = <T>(check: () => Promise<T>, timeout = 30_000) => vi.waitFor(check, { timeout, interval: 250 });

// ——— Names and Role Provisioning Services 2.0: the course's roster the platform serves ———

const NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice";
export const NRPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";

export interface RosterMember {
  user_id: string;
  roles: string[];
  status?: "Active" | "Inactive" | "Deleted";
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

/** How the loopback platform serves its roster (test/lti-platform.ts, RosterPlan). */
export interface RosterPlan {
  pages?: RosterMember[][];
  generate?: { pages: number; per_page: number };
  fail?: { page: number; status: number; times?: number; retry_after?: number };
  oversize_page?: number;
  refuse_token?: boolean;
  foreign_next?: number;
  delay_ms?: number;
}

/** The platform's roster from now on; answers its context_memberships_url. */
export const planRoster = async (platform: TestPlatform, plan: RosterPlan) =>
  (await control<{ memberships_url: string }>(`/p/${platform.name}/roster`, plan)).memberships_url;

/** The roster pages the platform answered (page, status, the Accept header it was asked with) and the roster tokens it granted. */
export const rosterLog = (platform: TestPlatform) =>
  control<{ pages: { page: number; status: number; accept: string }[]; tokens_granted: number }>(
    `/p/${platform.name}/roster-log`,
  );

/** A launch of the platform carrying the NRPS claim for `membershipsUrl` (its own person unless `sub` is given). */
export async function rosterLaunch(platform: TestPlatform, membershipsUrl: string, overrides: Record<string, unknown> = {}) {
  const res = await launch(
    platform,
    platform.claims({
      [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
      [NRPS_CLAIM]: { context_memberships_url: membershipsUrl, service_versions: ["2.0"] },
      ...overrides,
    }),
  );
  expect(res.status, res.text).toBe(200);
  return res.json as { launch_id: string; user_id: string };
}
