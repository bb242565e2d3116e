import { eq } from "drizzle-orm";
import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JWTPayload } from "jose";
import { ltiPlatforms } from "../db/lti-schema";
import type { Database } from "../env";
import { config } from "../lib/config";
import { ApiError } from "../lib/errors";
import { REALM } from "../lib/scopes";
import { isoNow } from "../lib/time";
import { type LaunchClaims, readClaims } from "./claims";
import { KeySetUnavailable, platformKeySet } from "./platform-keys";

/**
 * The checks of a launch's id_token (1EdTech Security Framework 1.0 §5.1.3, LTI Core 1.3 §5.3),
 * each failure a 401 invalid_launch naming its check. The platform is found by `iss` and the
 * client_id in `aud` (or `azp`) before the signature is checked, because its JWKS is what
 * verifies it; no other claim is believed before the signature holds. The nonce is claimed last (launches.ts), so
 * a token refused by another check does not use its nonce up.
 */

export type PlatformRow = typeof ltiPlatforms.$inferSelect;

const LAUNCH_CHECKS = [
  "malformed_token",
  "unknown_issuer",
  "wrong_audience",
  "missing_kid",
  "jwks_unavailable",
  "bad_signature",
  "expired",
  "issued_at",
  "unknown_deployment",
  "wrong_message_type",
  "wrong_version",
  "missing_sub",
  "missing_resource_link",
  "missing_roles",
  "missing_nonce",
  "replayed_nonce",
] as const;
export type LaunchCheck = (typeof LAUNCH_CHECKS)[number];

/** `iat` may be this far from now, either way; a launch's nonce is kept while its token could still pass (launches.ts). */
export const IAT_WINDOW_SECONDS = 5 * 60;

export function refused(check: LaunchCheck, why: string): ApiError {
  // A 401 names its scheme (RFC 9110 §11.6.1). No error parameter: the caller's own credential is
  // fine (an invalid_token would tell a client to renew it); the launch's id_token is what failed.
  return new ApiError("invalid_launch", `The launch failed the check ${check}: ${why}`, {
    members: { check },
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}"` },
  });
}

export interface VerifiedLaunch {
  platform: PlatformRow;
  claims: LaunchClaims & { sub: string; deploymentId: string; nonce: string; exp: number; iat: number };
  messageType: MessageType;
  /** The resource link (its id always present for LtiResourceLinkRequest); empty for deep linking. */
  resourceLink: Record<string, string>;
}

function decode(idToken: string): { kid: string | undefined; payload: JWTPayload } {
  try {
    const header = decodeProtectedHeader(idToken);
    return { kid: typeof header.kid === "string" ? header.kid : undefined, payload: decodeJwt(idToken) };
  } catch {
    throw refused("malformed_token", "the id_token is not a signed JWT (JWS compact serialization).");
  }
}

/**
 * The registration the token is for (LTI Core 1.3 §5.1.3, Security Framework §5.1.3): its issuer,
 * and the client_id the token names — `azp` when sent (it must be one of `aud`), else `aud`'s one
 * audience. Several audiences without `azp` are refused, so a token for two clients of a shared
 * issuer (Canvas Cloud) is this tool's only when `azp` says which of them it is.
 */
async function platformFor(db: Database, payload: JWTPayload): Promise<PlatformRow> {
  if (typeof payload.iss !== "string") throw refused("unknown_issuer", "the token has no iss.");
  const candidates = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, payload.iss));
  if (candidates.length === 0) throw refused("unknown_issuer", "no platform is registered with this issuer.");
  const audience = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (payload.azp !== undefined && (typeof payload.azp !== "string" || !audience.includes(payload.azp)))
    throw refused("wrong_audience", "azp must be one of the token's audiences (aud).");
  if (payload.azp === undefined && audience.length > 1)
    throw refused("wrong_audience", "aud holds several audiences: azp must name the tool's client_id.");
  const clientId = payload.azp ?? audience[0];
  const platform = candidates.find((p) => p.clientId === clientId);
  if (!platform)
    throw refused("wrong_audience", `${payload.azp === undefined ? "aud" : "azp"} is no client_id registered for this issuer.`);
  return platform;
}

async function checkSignature(
  env: Env,
  idToken: string,
  kid: string | undefined,
  platform: PlatformRow,
  nowMs: number,
): Promise<void> {
  // The Security Framework (§6.3) has the platform name its key: without a kid, a set of several
  // keys leaves "any of them" as the rule, and the certification refuses such a launch.
  if (kid === undefined) throw refused("missing_kid", "the token's header names no kid.");
  const policy = config(env).webhooks.urlPolicy;
  let keySet: Awaited<ReturnType<typeof platformKeySet>>;
  try {
    keySet = await platformKeySet(platform.jwksUrl, kid, policy, nowMs);
  } catch (error) {
    if (error instanceof KeySetUnavailable)
      throw refused("jwks_unavailable", `the platform's JWKS could not be fetched: ${error.message}`);
    throw error;
  }
  try {
    // RS256 only: the Security Framework's algorithm, and no "none" or HMAC confusion.
    await compactVerify(idToken, createLocalJWKSet(keySet), { algorithms: ["RS256"] });
  } catch {
    throw refused("bad_signature", "the signature is not RS256 by a key of the platform's JWKS.");
  }
}

/** The message types a launch may be; /v1/lti/launches takes resource links only. */
export type MessageType = "LtiResourceLinkRequest" | "LtiDeepLinkingRequest";

/**
 * Every check but the nonce's: the platform, and the claims the launch is made of. A resource
 * link launch must name its link; a deep-linking request has none (its settings are the tool's to check).
 */
export async function verifyIdToken(
  env: Env,
  db: Database,
  idToken: string,
  nowMs = Date.now(),
  messageTypes: readonly MessageType[] = ["LtiResourceLinkRequest"],
): Promise<VerifiedLaunch> {
  const { kid, payload } = decode(idToken);
  const platform = await platformFor(db, payload);
  await checkSignature(env, idToken, kid, platform, nowMs);
  const claims = readClaims(payload);
  const now = Math.floor(nowMs / 1000);
  if (claims.exp === undefined || claims.exp <= now)
    throw refused(
      "expired",
      claims.exp === undefined ? "the token has no exp." : `the token expired at ${isoNow(claims.exp * 1000)}.`,
    );
  if (claims.iat === undefined || Math.abs(now - claims.iat) > IAT_WINDOW_SECONDS)
    throw refused("issued_at", "iat must be within 5 minutes of now.");
  if (claims.deploymentId === undefined || !platform.deploymentIds.includes(claims.deploymentId))
    throw refused("unknown_deployment", "the deployment_id is not one of the platform's deployment_ids.");
  const messageType = messageTypes.find((type) => type === claims.messageType);
  if (messageType === undefined) throw refused("wrong_message_type", `message_type must be ${messageTypes.join(" or ")}.`);
  if (claims.version !== "1.3.0") throw refused("wrong_version", "version must be 1.3.0.");
  if (claims.sub === undefined) throw refused("missing_sub", "the token has no sub (an anonymous launch).");
  if (messageType === "LtiResourceLinkRequest" && claims.resourceLink === undefined)
    throw refused("missing_resource_link", "the resource_link claim has no id.");
  if (!claims.rolesSent) throw refused("missing_roles", "the token has no roles claim (an empty array is a valid one).");
  if (claims.nonce === undefined) throw refused("missing_nonce", "the token has no nonce.");
  return {
    platform,
    claims: {
      ...claims,
      sub: claims.sub,
      deploymentId: claims.deploymentId,
      nonce: claims.nonce,
      exp: claims.exp,
      iat: claims.iat,
    },
    messageType,
    resourceLink: claims.resourceLink ?? {},
  };
}
