import type { Context } from "hono";
import type { AppEnv } from "../env";

export const SCOPES = [
  "quizzes:read",
  "quizzes:write",
  "users:read",
  "users:write",
  "submissions:read",
  "submissions:write",
  "analytics:read",
  "admin",
] as const;
export type Scope = (typeof SCOPES)[number];

/** `admin` implies every other scope. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed) || granted.includes("admin");
}

/** Answer keys are shown only to callers that could have written them. */
export function canSeeAnswerKeys(c: Context<AppEnv>): boolean {
  const credential = c.get("credential");
  return credential !== undefined && hasScope(credential.scopes, "quizzes:write");
}
