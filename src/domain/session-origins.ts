import type { TargetPolicy } from "./safe-target";

/** The most origins one learner session names (§17). */
export const MAX_SESSION_ORIGINS = 10;

/** The hosts that `allow-loopback` accepts over http for a session's origin. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1"]);

/** scheme://host[:port] and nothing after it: no path, query, fragment or user info. Linear. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s]+$/i;

/**
 * A session's origin as a browser sends it in `Origin` (lower-case host, no default port), or the
 * reason it is refused: `https://host[:port]`, or `http://localhost|127.0.0.1[:port]` under the
 * `allow-loopback` policy, without a path.
 */
export function readOrigin(input: string, policy: TargetPolicy): { ok: true; origin: string } | { ok: false; reason: string } {
  const refusal = {
    ok: false as const,
    reason:
      policy === "allow-loopback"
        ? "An origin is https://host[:port] or http://localhost|127.0.0.1[:port], without a path."
        : "An origin is https://host[:port], without a path.",
  };
  if (input.length > 300 || !ORIGIN_SHAPE.test(input)) return refusal;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refusal;
  }
  if (url.protocol === "https:") return { ok: true, origin: url.origin };
  if (url.protocol === "http:" && policy === "allow-loopback" && LOOPBACK_HOSTS.has(url.hostname))
    return { ok: true, origin: url.origin };
  return refusal;
}
