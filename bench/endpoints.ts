// The endpoints the bench drives, as load specs over the seeded data.
import type { GradableQuestion } from "../src/domain/question-types";
import { answersFor, seededRandom } from "./fixtures";
import { GRADE_SQL_HOST } from "./grade-plans";
import type { LoadItem, LoadSpec } from "./load-spec";
import type { BenchData } from "./seed-bench";

export const BASELINE_HOST = "baseline.bench";
export const COUNTING_HOST = "counting.bench";

export interface Endpoint {
  key: string;
  /** As printed in the tables. */
  label: string;
  method: LoadSpec["method"];
  headers: Record<string, string>;
  items: LoadItem[];
  /** Items are used up (each open submission is graded once); report how many were. */
  consumable?: boolean;
  /** Served by a bare worker rather than the app: a baseline that others are measured against. */
  baseline?: boolean;
  /** The key of the baseline this endpoint is measured against (default "baseline", the list's). */
  against?: string;
}

const json = { "content-type": "application/json" };

export function endpoints(data: BenchData, quizzes: Map<string, { questions: GradableQuestion[] }>): Endpoint[] {
  const bearer = { authorization: `Bearer ${data.adminKey}` };
  const basic = {
    authorization: `Basic ${btoa(`${encodeURIComponent(data.client.id)}:${encodeURIComponent(data.client.secret)}`)}`,
  };
  const random = seededRandom(7);
  const submissionItems = data.quizIds.map((quizId, i) => {
    const questions = quizzes.get(quizId)?.questions ?? [];
    const user_id = data.userIds[(i * 7) % data.userIds.length];
    return {
      path: `/v1/quizzes/${quizId}/submissions`,
      body: JSON.stringify({ user_id, answers: answersFor(questions, 0.6, random) }),
    };
  });
  return [
    {
      key: "baseline",
      label: "baseline: bare worker, GET /v1/quizzes?limit=20 (no auth)",
      method: "GET",
      headers: { host: BASELINE_HOST },
      items: [{ path: "/v1/quizzes?limit=20" }],
      baseline: true,
    },
    {
      key: "list-quizzes",
      label: "GET /v1/quizzes?limit=20",
      method: "GET",
      headers: bearer,
      items: [{ path: "/v1/quizzes?limit=20" }],
    },
    {
      key: "get-quiz",
      label: "GET /v1/quizzes/{id}",
      method: "GET",
      headers: bearer,
      items: data.quizIds.map((id) => ({ path: `/v1/quizzes/${id}` })),
    },
    {
      key: "create-user",
      label: "POST /v1/users",
      method: "POST",
      headers: { ...bearer, ...json },
      // {n} is unique within the run: every request registers a new e-mail.
      items: [{ path: "/v1/users", body: JSON.stringify({ name: "Load User {n}", email: "load-user-{n}@example.com" }) }],
    },
    {
      key: "create-submission",
      label: "POST /v1/quizzes/{id}/submissions (20 answers)",
      method: "POST",
      headers: { ...bearer, ...json },
      items: submissionItems,
    },
    {
      key: "grade-sql",
      label: "baseline: bare worker, a grade's own SQL (its read, then its batch; no auth)",
      method: "POST",
      headers: { host: GRADE_SQL_HOST },
      items: data.gradeSqlIds.map((id) => ({ path: `/v1/submissions/${id}/grade` })),
      consumable: true,
      baseline: true,
    },
    {
      key: "grade",
      label: "POST /v1/submissions/{id}/grade (fresh, 20 questions)",
      method: "POST",
      headers: bearer,
      items: data.openIds.map((id) => ({ path: `/v1/submissions/${id}/grade` })),
      consumable: true,
      against: "grade-sql",
    },
    {
      key: "results",
      label: "GET /v1/submissions/{id}/results",
      method: "GET",
      headers: bearer,
      items: data.gradedIds.slice(0, 2000).map((id) => ({ path: `/v1/submissions/${id}/results` })),
    },
    {
      key: "quiz-analytics",
      label: "GET /v1/analytics/quiz/{id}",
      method: "GET",
      headers: bearer,
      items: data.quizIds.map((id) => ({ path: `/v1/analytics/quiz/${id}` })),
    },
    {
      key: "token",
      label: "POST /oauth/token (client_credentials, Basic)",
      method: "POST",
      headers: { ...basic, "content-type": "application/x-www-form-urlencoded" },
      items: [{ path: "/oauth/token", body: "grant_type=client_credentials" }],
    },
  ];
}
