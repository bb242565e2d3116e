import type { LearnerGrant } from "./learner-sessions";
import type { ReportGrant } from "./report-sessions";

/**
 * What a learner or report token may do, in one table each, checked in one place (the /v1 guard,
 * src/middleware/guard.ts) before the route runs: an operation missing from its table → 403
 * insufficient_scope; an operation listed whose resource is not the session's → 404, as if it did
 * not exist. Operations are named as the app's routes are (`METHOD /v1/path/:param`), so the auth
 * matrix (test/security/auth-matrix.test.ts) walks these tables against every route served.
 */

/** A route's path parameters, as sent (an unknown id is simply not the session's). */
type Params = Record<string, string>;
/** Reads the D1 primary: whether a submission is this user's at this quiz, or of one of these quizzes. */
export type SubmissionOwner = (submissionId: string) => Promise<{ userId: string; quizId: string } | undefined>;
type Check<G> = (grant: G, params: Params, owner: SubmissionOwner) => boolean | Promise<boolean>;

const always = () => true;

const ownSubmission: Check<LearnerGrant> = async (grant, params, owner) => {
  const found = params.id === undefined ? undefined : await owner(params.id);
  return found !== undefined && found.userId === grant.userId && found.quizId === grant.quizId;
};

/** Every operation of a learner token: its quiz's submissions as its user, and nothing else. */
export const LEARNER_OPERATIONS: Readonly<Record<string, Check<LearnerGrant>>> = {
  "GET /v1/learner-sessions/current": always,
  "POST /v1/quizzes/:id/submissions": (grant, params) => params.id === grant.quizId,
  "GET /v1/submissions/:id": ownSubmission,
  "PUT /v1/submissions/:id/answers": ownSubmission,
  "PUT /v1/submissions/:id/answers/:question_id": ownSubmission,
  "POST /v1/submissions/:id/grade": ownSubmission,
  "GET /v1/submissions/:id/results": ownSubmission,
};

const namedQuiz: Check<ReportGrant> = (grant, params) => params.id !== undefined && grant.quizIds.includes(params.id);
const submissionOfNamedQuiz: Check<ReportGrant> = async (grant, params, owner) => {
  const found = params.id === undefined ? undefined : await owner(params.id);
  return found !== undefined && grant.quizIds.includes(found.quizId);
};

/**
 * Every operation of a report token: reads of the quizzes it names (the list of quizzes is
 * narrowed to them by its handler). `GET /v1/auth/verify` lets the report page check the token.
 */
export const REPORT_OPERATIONS: Readonly<Record<string, Check<ReportGrant>>> = {
  "GET /v1/auth/verify": always,
  "GET /v1/quizzes": always,
  "GET /v1/quizzes/:id": namedQuiz,
  "GET /v1/quizzes/:id/questions": namedQuiz,
  "GET /v1/analytics/quiz/:id": namedQuiz,
  "GET /v1/analytics/quiz/:id/items": namedQuiz,
  "GET /v1/quizzes/:id/submissions": namedQuiz,
  "GET /v1/quizzes/:id/results/export": namedQuiz,
  "GET /v1/submissions/:id/results": submissionOfNamedQuiz,
};

/** The parameters of `path` under the route pattern `pattern` (`/v1/quizzes/:id`): segment by segment. */
function paramsOf(pattern: string, path: string): Params {
  const names = pattern.split("/");
  const values = path.split("/");
  const params: Params = {};
  names.forEach((name, i) => {
    if (!name.startsWith(":")) return;
    try {
      params[name.slice(1)] = decodeURIComponent(values[i] ?? "");
    } catch {
      params[name.slice(1)] = "";
    }
  });
  return params;
}

/**
 * The verdict of a session's table on one operation: "allowed", "forbidden" (not in the table:
 * 403) or "not_found" (its resource is not the session's: 404).
 */
export async function judgeOperation<G>(
  table: Readonly<Record<string, Check<G>>>,
  grant: G,
  operation: { method: string; pattern: string; path: string },
  owner: SubmissionOwner,
): Promise<"allowed" | "forbidden" | "not_found"> {
  const check = table[`${operation.method} ${operation.pattern}`];
  if (!check) return "forbidden";
  return (await check(grant, paramsOf(operation.pattern, operation.path), owner)) ? "allowed" : "not_found";
}

/**
 * The scopes a session's credential carries inside the app, so that each route's own scope check
 * and the key-hiding rules treat it as §17 says: a learner sees what a quizzes:read +
 * submissions:read + submissions:write credential sees; a report reader what quizzes:read +
 * analytics:read + submissions:read sees. The tables above decide what it may call at all.
 */
export const LEARNER_SCOPES = ["quizzes:read", "submissions:read", "submissions:write"];
export const REPORT_SCOPES = ["quizzes:read", "analytics:read", "submissions:read"];
