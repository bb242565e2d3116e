/** The realm of every WWW-Authenticate challenge the API sends (RFC 6750 §3, RFC 7617). */
export const REALM = "quiz";

export const SCOPES = [
  "quizzes:read",
  "quizzes:write",
  "users:read",
  "users:write",
  "submissions:read",
  "submissions:write",
  "analytics:read",
  "events:read",
  "webhooks:write",
  "reviews:write",
  "lti:launch",
  "learners:write",
  "admin",
] as const;
export type Scope = (typeof SCOPES)[number];

/** `admin` implies every other scope. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed) || granted.includes("admin");
}
