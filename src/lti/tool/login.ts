import { eq } from "drizzle-orm";
import { ltiPlatforms } from "../../db/lti-schema";
import { ltiLoginStates } from "../../db/lti-tool-schema";
import type { Database } from "../../env";
import { randomBase62, sha256Hex } from "../../lib/crypto";
import { isoNow } from "../../lib/time";
import { ToolRefusal } from "./refusal";

/**
 * GET|POST /lti/login: OIDC third-party initiated login (LTI Core 1.3 §5.1.1, Security Framework
 * §5.1.1). The platform names itself (`iss`, and `client_id` where one issuer has several
 * registrations); the tool makes a fresh `state` and `nonce`, keeps them server-side for
 * LOGIN_STATE_TTL_SECONDS, binds the state to this browser with a cookie, and sends the browser
 * to the platform's authorization endpoint. The launch (launch.ts) is accepted only with that state,
 * once, and with the id_token's nonce equal to the state's.
 */

/** How long a login may take to come back as a launch (the platform's authorization round trip). */
const LOGIN_STATE_TTL_SECONDS = 10 * 60;
/** 32 base62 characters: about 190 bits, past the 128 the contract asks of state and nonce. */
const SECRET_LENGTH = 32;
const MAX_PARAM_LENGTH = 4096;
/** Every state gets a cookie of its own, so that two logins at once in one browser (two frames) keep theirs. */
const COOKIE_PREFIX = "__Host-lti-state-";

export interface LoginParams {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
}

/** The cookie name of a state: a prefix of its hash, so the state itself is in no cookie. */
export const stateCookieName = (stateHash: string) => `${COOKIE_PREFIX}${stateHash.slice(0, 16)}`;

/**
 * The cookie that binds a state to the browser: `__Host-` (Secure, Path=/, no Domain: this
 * origin only), HttpOnly, SameSite=None (the launch is a cross-site form post from the platform)
 * and Partitioned (CHIPS: where third-party cookies are blocked but partitioned ones allowed, a
 * framed tool keeps it under the LMS's site).
 */
const stateCookie = (name: string, value: string, maxAgeSeconds: number) =>
  `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; Secure; HttpOnly; SameSite=None; Partitioned`;

function required(params: LoginParams, name: "iss" | "login_hint" | "target_link_uri"): string {
  const value = params[name];
  if (value === undefined || value === "")
    throw new ToolRefusal(
      400,
      "missing_parameter",
      `The login request has no ${name}; the LMS must send iss, login_hint and target_link_uri.`,
    );
  return value;
}

export interface LoginRedirect {
  location: string;
  cookie: string;
}

/** The platform the login names, the state kept, and where the browser goes next. */
export async function beginLogin(
  db: Database,
  params: LoginParams,
  toolOrigin: string,
  nowMs = Date.now(),
): Promise<LoginRedirect> {
  for (const [name, value] of Object.entries(params))
    if (typeof value === "string" && value.length > MAX_PARAM_LENGTH)
      throw new ToolRefusal(
        400,
        "parameter_too_long",
        `The login parameter ${name} is longer than ${MAX_PARAM_LENGTH} characters.`,
      );
  const issuer = required(params, "iss");
  const loginHint = required(params, "login_hint");
  const targetLinkUri = required(params, "target_link_uri");
  const registered = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, issuer));
  const candidates = params.client_id ? registered.filter((p) => p.clientId === params.client_id) : registered;
  if (candidates.length === 0)
    throw new ToolRefusal(
      400,
      "unknown_issuer",
      registered.length === 0
        ? "This LMS (its issuer) is not registered with the quiz tool. Ask the school's administrator to register it."
        : "The LMS sent a client_id that is not registered for its issuer.",
    );
  if (candidates.length > 1)
    throw new ToolRefusal(
      400,
      "ambiguous_issuer",
      "Several registrations share this issuer and the login request names no client_id; the LMS must send client_id.",
    );
  const platform = candidates[0] as (typeof candidates)[number];
  if (platform.authLoginUrl === null)
    throw new ToolRefusal(
      400,
      "no_auth_login_url",
      "The LMS is registered without its authorization URL (auth_login_url); the school's administrator must add it.",
      platform.id,
    );
  const state = randomBase62(SECRET_LENGTH);
  const nonce = randomBase62(SECRET_LENGTH);
  const binding = randomBase62(SECRET_LENGTH);
  const stateHash = await sha256Hex(state);
  await db.insert(ltiLoginStates).values({
    stateHash,
    platformId: platform.id,
    nonceHash: await sha256Hex(nonce),
    bindingHash: await sha256Hex(binding),
    targetLinkUri,
    expiresAt: isoNow(nowMs + LOGIN_STATE_TTL_SECONDS * 1000),
    claim: null,
  });
  const location = new URL(platform.authLoginUrl);
  const query: [string, string | undefined][] = [
    ["scope", "openid"],
    ["response_type", "id_token"],
    ["response_mode", "form_post"],
    ["prompt", "none"],
    ["client_id", platform.clientId],
    ["redirect_uri", `${toolOrigin}/lti/launch`],
    ["login_hint", loginHint],
    ["lti_message_hint", params.lti_message_hint],
    ["state", state],
    ["nonce", nonce],
  ];
  for (const [name, value] of query) if (value !== undefined) location.searchParams.set(name, value);
  return { location: location.href, cookie: stateCookie(stateCookieName(stateHash), binding, LOGIN_STATE_TTL_SECONDS) };
}
