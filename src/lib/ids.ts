import { z } from "@hono/zod-openapi";
import { encodeTime, monotonicFactory } from "ulidx";

/** Resource id prefixes; the rest of an id is a lower-case ULID, so ids sort by creation time. */
export const ID_PREFIX = {
  quiz: "quiz",
  question: "qst",
  user: "user",
  submission: "sub",
  apiKey: "key",
  oauthClient: "cli",
  event: "evt",
  webhookEndpoint: "whe",
  delivery: "whd",
  job: "job",
  ltiPlatform: "ltp",
  ltiLaunch: "ltl",
  ltiPassback: "lpb",
  ltiKey: "ltk",
  learnerSession: "lse",
  reportSession: "rse",
} as const;
export type IdKind = keyof typeof ID_PREFIX;

/**
 * Prefixes some kinds had before (`we_`, `dlv_`): migration 0007 renamed every stored id, and a
 * path or body still naming one the old way is read as the same resource (idParam).
 */
const LEGACY_PREFIX: Partial<Record<IdKind, string>> = { webhookEndpoint: "we", delivery: "dlv" };

// Monotonic within an isolate: two ids made in the same millisecond still sort in creation order.
const ulid = monotonicFactory();

export function newId(kind: IdKind, now = Date.now()): string {
  return `${ID_PREFIX[kind]}_${ulid(now).toLowerCase()}`;
}

/**
 * The smallest id of a kind made at `ms`: every id made earlier sorts below it. (Not newId: the
 * monotonic factory never goes back in time.)
 */
export function idFloor(kind: IdKind, ms: number): string {
  return `${ID_PREFIX[kind]}_${encodeTime(ms, 10).toLowerCase()}${"0".repeat(16)}`;
}

const ULID_BODY = "[0-7][0-9a-hjkmnp-tv-z]{25}";
const patterns = Object.fromEntries(
  Object.entries(ID_PREFIX).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${ULID_BODY}$`)]),
) as Record<IdKind, RegExp>;

export function isId(kind: IdKind, value: string): boolean {
  return patterns[kind].test(value);
}

/** `value` with its kind's legacy prefix replaced by the current one; anything else as it is. */
export function canonicalId(kind: IdKind, value: string): string {
  const legacy = LEGACY_PREFIX[kind];
  return legacy !== undefined && value.startsWith(`${legacy}_`) ? `${ID_PREFIX[kind]}_${value.slice(legacy.length + 1)}` : value;
}

/** The id a resource had under its kind's legacy prefix, if the kind had one. */
export function legacyId(kind: IdKind, value: string): string | undefined {
  const legacy = LEGACY_PREFIX[kind];
  return legacy !== undefined && isId(kind, value) ? `${legacy}_${value.slice(ID_PREFIX[kind].length + 1)}` : undefined;
}

/** An id in a path or request body: also accepted under its kind's legacy prefix, and read as the current id. */
export function idParam(kind: IdKind) {
  const legacy = LEGACY_PREFIX[kind];
  if (legacy === undefined) return idSchema(kind);
  return z
    .string()
    .transform((value) => canonicalId(kind, value))
    .pipe(idSchema(kind))
    .openapi({
      pattern: `^(?:${ID_PREFIX[kind]}|${legacy})_${ULID_BODY}$`,
      maxLength: ID_PREFIX[kind].length + 1 + 26,
      example: `${ID_PREFIX[kind]}_01kamz3f7c9n0p8s6e5vwx2y4r`,
    });
}

/** A string schema for ids of one kind, with an example for the OpenAPI document. */
export function idSchema(kind: IdKind) {
  // The pattern fixes the length; maxLength says so to clients and linters that do not read patterns.
  const length = ID_PREFIX[kind].length + 1 + 26;
  return z
    .string()
    .regex(patterns[kind])
    .openapi({ maxLength: length, example: `${ID_PREFIX[kind]}_01kamz3f7c9n0p8s6e5vwx2y4r` });
}
