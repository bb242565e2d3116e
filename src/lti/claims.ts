import type { JWTPayload } from "jose";
import { textProblem } from "../lib/text";

/** The LTI 1.3 (Core) and AGS claims a launch reads. */
const CLAIM = {
  messageType: "https://purl.imsglobal.org/spec/lti/claim/message_type",
  version: "https://purl.imsglobal.org/spec/lti/claim/version",
  deploymentId: "https://purl.imsglobal.org/spec/lti/claim/deployment_id",
  resourceLink: "https://purl.imsglobal.org/spec/lti/claim/resource_link",
  context: "https://purl.imsglobal.org/spec/lti/claim/context",
  roles: "https://purl.imsglobal.org/spec/lti/claim/roles",
  custom: "https://purl.imsglobal.org/spec/lti/claim/custom",
  launchPresentation: "https://purl.imsglobal.org/spec/lti/claim/launch_presentation",
  deepLinkingSettings: "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings",
  ags: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
  nrps: "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
} as const;

/** The AGS scope that posting scores needs. */
export const AGS_SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";

// Launch data is stored and answered, so every string is bounded and well-formed.
const MAX_ID = 255;
const MAX_TEXT = 1000;
const MAX_URL = 2048;
const MAX_ROLES = 50;
const MAX_NAME = 200;
const MAX_EMAIL = 254;

/** A claim's string, trimmed, without control characters, at most `max` code points; undefined when none is left. */
function clip(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const clean = value
    // A lone surrogate (JSON can escape one) becomes U+FFFD, as D1 would store it.
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/\p{Cc}/gu, " ")
    .trim();
  const points = Array.from(clean);
  const cut = points.length > max ? points.slice(0, max).join("").trim() : clean;
  return cut === "" || textProblem(cut, false) !== undefined ? undefined : cut;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** An object of the named string fields that are present. */
function strings(value: unknown, fields: Record<string, number>): Record<string, string> {
  const source = record(value);
  const out: Record<string, string> = {};
  for (const [field, max] of Object.entries(fields)) {
    const text = clip(source[field], max);
    if (text !== undefined) out[field] = text;
  }
  return out;
}

/** An exact identifier claim (deployment_id, sub, resource link id): kept as sent, never altered. */
const exact = (value: unknown, max: number) =>
  typeof value === "string" && value !== "" && value.length <= max ? value : undefined;

export interface LaunchClaims {
  messageType: unknown;
  version: unknown;
  deploymentId: string | undefined;
  sub: string | undefined;
  nonce: string | undefined;
  exp: number | undefined;
  iat: number | undefined;
  resourceLink: Record<string, string> | undefined;
  context: Record<string, string> | null;
  roles: string[];
  /** Whether the roles claim was an array (an empty one counts): without it the launch is refused. */
  rolesSent: boolean;
  name: string;
  email: string | null;
  customQuizId: string | undefined;
  ags: { lineitem: string | null; scopes: string[] } | null;
  /** The NRPS claim's context_memberships_url; null without one. */
  membershipsUrl: string | null;
  /** launch_presentation.return_url as sent (the tool judges it before using it). */
  returnUrl: string | undefined;
  deepLinking: DeepLinkingSettings | undefined;
}

/** The deep_linking_settings claim of an LtiDeepLinkingRequest (LTI Deep Linking 2.0 §4.4.1). */
interface DeepLinkingSettings {
  returnUrl: string | undefined;
  acceptTypes: string[];
  acceptMultiple: boolean;
  /** False only when the platform said false: line items are then left out of the response. */
  acceptLineitem: boolean;
  /** Echoed in the response as sent, when sent (a platform's opaque value). */
  data: string | undefined;
}

function deepLinkingOf(payload: JWTPayload): DeepLinkingSettings | undefined {
  const claim = payload[CLAIM.deepLinkingSettings];
  if (claim === undefined) return undefined;
  const settings = record(claim);
  const url = settings.deep_link_return_url;
  return {
    returnUrl: typeof url === "string" && url.length <= MAX_URL ? url : undefined,
    acceptTypes: Array.isArray(settings.accept_types)
      ? settings.accept_types.filter((t): t is string => typeof t === "string").slice(0, 20)
      : [],
    acceptMultiple: settings.accept_multiple === true,
    acceptLineitem: settings.accept_lineitem !== false,
    data: typeof settings.data === "string" && settings.data.length <= 4096 ? settings.data : undefined,
  };
}

/** A person's name from the claims (or an NRPS member): `name`, else given and family names; "" when the platform sends none. */
export function nameOf(payload: Record<string, unknown>): string {
  const full = clip(payload.name, MAX_NAME);
  if (full !== undefined) return full;
  const parts = [clip(payload.given_name, MAX_NAME), clip(payload.family_name, MAX_NAME)].filter(Boolean);
  return clip(parts.join(" "), MAX_NAME) ?? "";
}

/** The e-mail claim (or an NRPS member's) when it is an address; null otherwise (never an invented one). */
export function emailOf(payload: Record<string, unknown>): string | null {
  const email = clip(payload.email, MAX_EMAIL);
  return email !== undefined && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

function agsOf(payload: JWTPayload): LaunchClaims["ags"] {
  const claim = payload[CLAIM.ags];
  if (claim === undefined) return null;
  const ags = record(claim);
  const scopes = Array.isArray(ags.scope)
    ? ags.scope.filter((s): s is string => typeof s === "string" && s.length <= MAX_URL)
    : [];
  const lineitem = typeof ags.lineitem === "string" && ags.lineitem.length <= MAX_URL ? ags.lineitem : null;
  return { lineitem, scopes: scopes.slice(0, 20) };
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The NRPS claim's roster URL (Names and Role Provisioning Services 2.0 §3.6.1); null without one or when it is no URL. */
function membershipsUrlOf(payload: JWTPayload): string | null {
  const url = record(payload[CLAIM.nrps]).context_memberships_url;
  return typeof url === "string" && url.length <= MAX_URL && isUrl(url) ? url : null;
}

/** Roles as a claim or an NRPS member lists them: strings of at most 255 characters, at most 50. */
export const rolesOf = (roles: unknown): string[] =>
  Array.isArray(roles) ? roles.filter((r): r is string => typeof r === "string" && r.length <= MAX_ID).slice(0, MAX_ROLES) : [];

/** An exact identifier (a member's user_id, as a launch's sub): kept as sent; undefined when empty or over 255 characters. */
export const ltiUserIdOf = (value: unknown) => exact(value, MAX_ID);

/** The claims of a verified id_token, read defensively: a missing or malformed claim is undefined, for its check to refuse. */
export function readClaims(payload: JWTPayload): LaunchClaims {
  const link = record(payload[CLAIM.resourceLink]);
  const linkId = exact(link.id, MAX_ID);
  const context = payload[CLAIM.context];
  const contextId = exact(record(context).id, MAX_ID);
  const roles = payload[CLAIM.roles];
  const customQuizId = record(payload[CLAIM.custom]).quiz_id;
  return {
    messageType: payload[CLAIM.messageType],
    version: payload[CLAIM.version],
    deploymentId: exact(payload[CLAIM.deploymentId], MAX_ID),
    sub: exact(payload.sub, MAX_ID),
    nonce: typeof payload.nonce === "string" && payload.nonce !== "" ? payload.nonce : undefined,
    exp: typeof payload.exp === "number" ? payload.exp : undefined,
    iat: typeof payload.iat === "number" ? payload.iat : undefined,
    resourceLink: linkId === undefined ? undefined : { ...strings(link, { title: MAX_NAME, description: MAX_TEXT }), id: linkId },
    context: contextId === undefined ? null : { ...strings(context, { label: MAX_NAME, title: MAX_NAME }), id: contextId },
    roles: rolesOf(roles),
    rolesSent: Array.isArray(roles),
    name: nameOf(payload),
    email: emailOf(payload),
    customQuizId: typeof customQuizId === "string" ? customQuizId : undefined,
    ags: agsOf(payload),
    membershipsUrl: membershipsUrlOf(payload),
    returnUrl: (() => {
      const url = record(payload[CLAIM.launchPresentation]).return_url;
      return typeof url === "string" && url.length <= MAX_URL ? url : undefined;
    })(),
    deepLinking: deepLinkingOf(payload),
  };
}

/**
 * The roles that make a launch an instructor's (LTI Core 1.3 §5.3.7 and its role vocabularies):
 * Instructor, TeachingAssistant, ContentDeveloper and Administrator, as context (membership),
 * institution or system roles, as full URIs or the short names LTI 1.3 still admits. Anyone else —
 * Learner, Mentor, an unknown role, no role at all — is a learner.
 */
const TEACHING_NAMES = new Set(["Instructor", "TeachingAssistant", "ContentDeveloper", "Administrator"]);
const LIS = "http://purl.imsglobal.org/vocab/lis/v2/";
const ROLE_VOCABULARIES = [`${LIS}membership#`, `${LIS}institution/person#`, `${LIS}system/person#`];
/** A context sub-role, `membership/<role>#<sub-role>`: a teaching role's sub-roles teach, and so does any TeachingAssistant. */
const SUB_ROLE = /^http:\/\/purl\.imsglobal\.org\/vocab\/lis\/v2\/membership\/(\w+)#(\w+)$/;

function isTeachingRole(role: string): boolean {
  if (TEACHING_NAMES.has(role)) return true;
  const vocabulary = ROLE_VOCABULARIES.find((prefix) => role.startsWith(prefix));
  if (vocabulary !== undefined) return TEACHING_NAMES.has(role.slice(vocabulary.length));
  const sub = SUB_ROLE.exec(role);
  return sub !== null && (TEACHING_NAMES.has(sub[1] ?? "") || sub[2] === "TeachingAssistant");
}

/** Whether the launch is an instructor's (any teaching role), else a learner's. */
export const teaches = (roles: readonly string[]) => roles.some(isTeachingRole);

/** The role a launched user is created with: instructor for a teaching role, else student; never admin. */
export const roleOf = (roles: readonly string[]) => (teaches(roles) ? "instructor" : "student");
