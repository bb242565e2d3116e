import type { JSONWebKeySet } from "jose";
import type { Config } from "../lib/config";
import { outbound } from "./outbound";

/**
 * A platform's public keys (its JWKS), fetched under the safe-target rules and kept in this
 * isolate for at most 10 minutes (docs/lti.md). A token signed with a kid the kept set lacks
 * fetches the set again at once (the platform rotated its keys); concurrent fetches of one URL
 * share one request.
 */

const CACHE_MS = 10 * 60_000;

interface Kept {
  set: JSONWebKeySet;
  fetchedAtMs: number;
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

async function fetchKeySet(url: string, policy: Config["webhooks"]["urlPolicy"]): Promise<JSONWebKeySet> {
  const answer = await outbound(url, { headers: { accept: "application/json" } }, policy);
  if (answer.status !== 200) throw new KeySetUnavailable(answer.error ?? `the JWKS URL answered HTTP ${answer.status}`);
  const set = readKeySet(answer.body);
  if (!set) throw new KeySetUnavailable("the JWKS URL did not answer a JSON Web Key Set (at most 64 KiB)");
  kept.set(url, { set, fetchedAtMs: Date.now() });
  return set;
}

/** The platform's key set, holding `kid` if the platform publishes it. */
export async function platformKeySet(url: string, kid: string | undefined, policy: Config["webhooks"]["urlPolicy"]) {
  const known = kept.get(url);
  const fresh = known !== undefined && Date.now() - known.fetchedAtMs < CACHE_MS;
  if (fresh && (kid === undefined || known.set.keys.some((key) => key.kid === kid))) return known.set;
  let pending = fetching.get(url);
  if (!pending) {
    pending = fetchKeySet(url, policy).finally(() => fetching.delete(url));
    fetching.set(url, pending);
  }
  return pending;
}
