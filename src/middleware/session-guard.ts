import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv, Credential } from "../env";
import { ApiError, invalidClient, notFound } from "../lib/errors";
import { REALM } from "../lib/scopes";
import { judgeOperation, LEARNER_OPERATIONS, REPORT_OPERATIONS, type SubmissionOwner } from "../sessions/allowed-operations";
import { echoLearnerOrigin } from "./security-headers";

/**
 * The route a request reached, as the app names it (`GET /v1/quizzes/:id`): the first matched
 * route of a method (middleware mounted with `use` is ALL). Routes are matched in the order they
 * were added, so `/current` wins over `/:id` as it does when the request is dispatched.
 */
function operationOf(c: Context<AppEnv>) {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL");
  return route && { method: route.method, pattern: route.path, path: c.req.path };
}

const LEARNER_PATHS = Object.keys(LEARNER_OPERATIONS).map(
  (operation) => new RegExp(`^${operation.slice(operation.indexOf(" ") + 1).replace(/:[a-z_]+/g, "[^/]+")}$`),
);

/** Whether a path is one of a learner token's routes (for the preflight, which names no method's token). */
export const isLearnerPath = (path: string): boolean => LEARNER_PATHS.some((pattern) => pattern.test(path));

const forbidden = (kind: string) =>
  new ApiError("insufficient_scope", `A ${kind} token may not call this operation.`, {
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope"` },
  });

/**
 * The one check of what a session token may do (§17), run by the /v1 guard once the caller is
 * known: its operation must be in its session's table (sessions/allowed-operations.ts), else 403
 * insufficient_scope; its resource must be the session's, else 404. A learner's browser at one of
 * its session's origins is also answered with CORS headers here. Other credentials pass.
 */
export async function guardSession(c: Context<AppEnv>, credential: Credential): Promise<void> {
  const grant = credential.learner ?? credential.report;
  if (!grant) return;
  if (credential.learner) echoLearnerOrigin(c, credential.learner.origins);
  const operation = operationOf(c);
  if (!operation) return; // no route: the app's own 404 or 405
  const owner: SubmissionOwner = async (id) => {
    const row = await c
      .get("db")
      .$client.prepare("SELECT user_id, quiz_id FROM submissions WHERE id = ?")
      .bind(id)
      .first<{ user_id: string; quiz_id: string }>();
    return row ? { userId: row.user_id, quizId: row.quiz_id } : undefined;
  };
  const verdict = credential.learner
    ? await judgeOperation(LEARNER_OPERATIONS, credential.learner, operation, owner)
    : await judgeOperation(REPORT_OPERATIONS, credential.report as NonNullable<Credential["report"]>, operation, owner);
  if (verdict === "forbidden") throw forbidden(credential.learner ? "learner" : "report");
  if (verdict === "not_found") throw notFound("Resource");
}

const SESSION_TOKEN = /^Bearer +qz_(?:lt|vt)_/i;

/**
 * /oauth/*: a learner or report token is no client credential and no grant (§17): 401
 * invalid_client, whatever else the request holds, before the endpoint reads it.
 */
export function refuseSessionTokensAtOAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SESSION_TOKEN.test(c.req.header("authorization") ?? ""))
      throw invalidClient("A learner or report token cannot be used at the OAuth endpoints.");
    await next();
  };
}
