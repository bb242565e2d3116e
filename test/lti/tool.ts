import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { BASE } from "../support/call";
import { control, type TestPlatform } from "./platform";

// The browser's side of the tool's pages (/lti/login, /lti/launch, the picker), as the tests drive
// it: a cookie jar per browser, the login initiation the LMS sends, the loopback platform's
// authorization endpoint (test/lti-platform.ts) answering the signed launch, and the form post.

export const DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings";

/** One browser: the cookies it keeps (name → value), sent with each of its requests to the tool. */
export class Browser {
  readonly cookies = new Map<string, string>();

  async fetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers = { ...init.headers, ...(cookie ? { cookie } : {}) };
    const res = await exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers, redirect: "manual" }));
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

export interface Staged {
  /** The payload the platform signs (its nonce replaced by the tool's unless keep_nonce). */
  payload: Record<string, unknown>;
  keep_nonce?: boolean;
  state?: string;
}

/** The login initiation's parameters for a staged launch (login_hint = lti_message_hint = its hint). */
export async function loginParams(platform: TestPlatform, staged: Staged) {
  const { hint } = await control<{ hint: string }>(`/p/${platform.name}/launches`, staged);
  return {
    iss: platform.issuer,
    login_hint: hint,
    lti_message_hint: hint,
    target_link_uri: `${BASE}/lti/launch`,
    client_id: platform.clientId,
    lti_deployment_id: platform.deploymentId,
  };
}

/** GET /lti/login in the browser: the 302 to the platform's authorization endpoint. */
export async function login(browser: Browser, params: Record<string, string>) {
  const res = await browser.fetch(`/lti/login?${new URLSearchParams(params)}`);
  expect(res.status, await res.clone().text()).toBe(302);
  return res;
}

/** The authorization endpoint's answer to the tool's redirect: the id_token and state to post. */
async function authorize(location: string): Promise<{ id_token: string; state: string; redirect_uri: string }> {
  const res = await fetch(location, { headers: { accept: "application/json" } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** The whole way to the launch's form: login, authorization; the form the platform would post. */
export async function launchForm(browser: Browser, platform: TestPlatform, staged: Staged) {
  const res = await login(browser, await loginParams(platform, staged));
  const form = await authorize(res.headers.get("location") ?? "");
  expect(form.redirect_uri).toBe(`${BASE}/lti/launch`);
  return { id_token: form.id_token, state: form.state };
}

/** POST /lti/launch as the platform's page posts it (top level unless `framed`). */
export function postLaunch(browser: Browser, form: Record<string, string>, options: { framed?: boolean } = {}) {
  return browser.fetch("/lti/launch", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-dest": options.framed ? "iframe" : "document",
      "sec-fetch-site": "cross-site",
    },
    body: new URLSearchParams(form).toString(),
  });
}

/** A whole launch in one browser: login, authorization, the post. */
export async function toolLaunch(platform: TestPlatform, staged: Staged, browser = new Browser()) {
  return postLaunch(browser, await launchForm(browser, platform, staged));
}

/** The check a refusal page names. */
export async function checkOf(res: Response): Promise<string | undefined> {
  return /<code id="check">([^<]*)<\/code>/.exec(await res.clone().text())?.[1];
}

/** How many rows the tables a launch writes to hold: a refusal leaves them as they were. */
export async function launchRows() {
  const count = async (table: string) =>
    ((await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0) as number;
  return {
    launches: await count("lti_launches"),
    users: await count("users"),
    nonces: await count("lti_nonces"),
    tickets: await count("lti_tickets"),
    identities: await count("lti_identities"),
  };
}
