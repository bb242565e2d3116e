import type { TargetPolicy } from "./safe-target";

/**
 * A web origin as a setting (an LMS's frame origin): `https://host[:port]`, nothing after it (no
 * path, not even "/", no query, no user name), as browsers serialise it; under "allow-loopback"
 * (local development and tests) also `http://localhost|127.0.0.1[:port]`. Origins go into a
 * Content-Security-Policy: a value with a space, a semicolon or a wildcard would widen or break
 * the policy, and the exact-serialisation rule refuses all of them.
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1"]);
const MAX_ORIGIN_LENGTH = 255;
const LABEL = /^[a-z0-9-]+$/;
const IP_LITERAL = /^\[[0-9a-f:.]+\]$/;

/** A host of dot-separated labels of letters, digits and hyphens, or a bracketed IPv6 literal: read label by label, no nested quantifier. */
const isPlainHost = (host: string) => IP_LITERAL.test(host) || host.split(".").every((label) => LABEL.test(label));

/** Why `value` is not an origin the policy accepts; undefined when it is one. */
export function originProblem(value: string, policy: TargetPolicy): string | undefined {
  if (value.length > MAX_ORIGIN_LENGTH) return `An origin is at most ${MAX_ORIGIN_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Expected an origin such as https://lms.example.org.";
  }
  if (url.origin !== value) return "Expected an origin alone (https://host[:port]), without a path, query or trailing slash.";
  // WHATWG URLs keep "*" and a few other characters in a host; a policy would read "*" as a wildcard.
  if (!isPlainHost(url.hostname)) return "An origin's host is a domain name or an IP address (no wildcard).";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && policy === "allow-loopback" && LOOPBACK.has(url.hostname)) return undefined;
  return "An origin must use https.";
}
