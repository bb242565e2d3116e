import type { Context } from "hono";

/**
 * What the API still accepts but will stop accepting, each with its notice (docs/compatibility.md):
 * marked `deprecated` in the document, listed in the CHANGELOG's "Deprecated" section, and
 * answered with `Deprecation` (RFC 9745: the date it was deprecated) and `Sunset` (RFC 8594: the
 * date it may stop working, at least 90 days later) on every request that uses it.
 */
const DEPRECATIONS = {
  boolean_show_correct_answers: {
    what: "settings.show_correct_answers given as true or false",
    instead: 'the reveal policies "always" and "never"',
    deprecatedAt: "2026-11-26T00:00:00.000Z",
    sunsetAt: "2027-03-01T00:00:00.000Z",
  },
} as const;
export type Deprecation = keyof typeof DEPRECATIONS;

/** Where a caller reads the policy (the document's description) and what each deprecated thing says to use instead. */
const POLICY_URL = "/docs";

/** The headers of an answer to a request that used `what`. */
function deprecationHeaders(what: Deprecation): Record<string, string> {
  const { deprecatedAt, sunsetAt } = DEPRECATIONS[what];
  return {
    // RFC 9745 §2.1: a Structured Field Date, seconds since the epoch.
    Deprecation: `@${Math.floor(Date.parse(deprecatedAt) / 1000)}`,
    // RFC 8594 §3: an HTTP-date.
    Sunset: new Date(sunsetAt).toUTCString(),
    Link: `<${POLICY_URL}>; rel="deprecation"; type="text/html"`,
  };
}

/** Sets the deprecation headers on this request's answer. */
export function noteDeprecation(c: Context, what: Deprecation): void {
  for (const [name, value] of Object.entries(deprecationHeaders(what))) c.header(name, value);
}

/** The document's description of the headers an answer may carry when the request used something deprecated. */
export const DEPRECATION_RESPONSE_HEADERS = {
  Deprecation: {
    description:
      "RFC 9745: present when the request used something deprecated (docs/compatibility.md), with the date it was deprecated.",
    schema: { type: "string" as const, example: "@1795651200" },
  },
  Sunset: {
    description: "RFC 8594: the date after which what was deprecated may stop working (at least 90 days after Deprecation).",
    schema: { type: "string" as const, example: "Mon, 01 Mar 2027 00:00:00 GMT" },
  },
};
