import type { JSONWebKeySet } from "jose";
import type { Config } from "../lib/config";
import { outbound } from "../outbound/request";

/**
 * A platform's public keys (its JWKS), fetched under the safe-target rules and kept in this
 * isolate for at most 10 minutes (docs/lti.md). A token signed with a kid the kept set lacks
 * fetches the set again (the platform rotated its keys), but at most once per
 * JWKS_MIN_REFETCH_MS per URL: the kid is read before any signature can be checked, so anyone who
 * knows a platform's issuer and client_id could otherwise make every forged token cost a fetch.
 * Concurrent fetches of one URL share one request.
 */

const CACHE_MS = 10 * 60_000;
/** The least time between two fetches of one JWKS URL, whatever came of the first (jose's cooldown, 30 s). */
export const JWKS_MIN_REFETCH_MS = 30_000;

interface Kept {
  /** The last set fetched, and when; undefined while no fetch has succeeded. */
  set: JSONWebKeySet | undefined;
  fetchedAtMs: number;
  /** When the URL was last fetched, and why that fetch failed if it did. */
  triedAtMs: number;
  failure: string | undefined;
}

const kept = new Map<string, Kept>();
const fetching = new Map<string, Promise<JSONWebKeySet>>();

/** Why a key set could not be had: the launch is refused with check jwks_unavailable. */
export class KeySetUnavailable extends Error {}

function readKeySet(text: string): JSONWebKeySet | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const keys = (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === "object" && k !== null)) return undefined;
    return { keys: keys as JSONWebKeySet["keys"] };
  } catch {
    return undefined;
  }
}

async function fetchKeySet(url: string, policy: Config["webhooks"]["urlPolicy"], nowMs: number): Promise<JSONWebKeySet> {
  const before = kept.get(url);
  const fail = (failure: string): never => {
    kept.set(url, { set: before?.set, fetchedAtMs: before?.fetchedAtMs ?? 0, triedAtMs: nowMs, failure });
    throw new KeySetUnavailable(failure);
  };
  const answer = await outbound(url, { headers: { accept: "application/json" } }, policy);
  if (answer.status !== 200) return fail(answer.error ?? `the JWKS URL answered HTTP ${answer.status}`);
  const set = readKeySet(answer.body);
  if (!set) return fail("the JWKS URL did not answer a JSON Web Key Set (at most 64 KiB)");
  kept.set(url, { set, fetchedAtMs: nowMs, triedAtMs: nowMs, failure: undefined });
  return set;
}

/**
 * The platform's key set, holding `kid` if the platform publishes it (and it was fetched again at
 * most JWKS_MIN_REFETCH_MS ago). `nowMs` is the launch's clock.
 */
export async function platformKeySet(
  url: string,
  kid: string | undefined,
  policy: Config["webhooks"]["urlPolicy"],
  nowMs: number,
): Promise<JSONWebKeySet> {
  const known = kept.get(url);
  const fresh = known?.set !== undefined && nowMs - known.fetchedAtMs < CACHE_MS ? known.set : undefined;
  if (fresh && (kid === undefined || fresh.keys.some((key) => key.kid === kid))) return fresh;
  if (known && nowMs - known.triedAtMs < JWKS_MIN_REFETCH_MS) {
    // Fetched moments ago: a kid it lacks is no key of the platform's yet (bad_signature follows).
    if (fresh) return fresh;
    if (known.failure !== undefined)
      throw new KeySetUnavailable(`${known.failure} (fetched again at most every ${JWKS_MIN_REFETCH_MS / 1000} s)`);
  }
  let pending = fetching.get(url);
  if (!pending) {
    pending = fetchKeySet(url, policy, nowMs).finally(() => fetching.delete(url));
    fetching.set(url, pending);
  }
  return pending;
}
