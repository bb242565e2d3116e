// The soak's analytics check (scripts/soak.ts): the API's quiz and user analytics against a
// recomputation from the submissions table. Same definitions and the same SQL as
// test/support/recompute.ts (which runs inside workerd, so it cannot be imported here), grouped so that
// one `wrangler d1 execute` recomputes every quiz and user at once.

export interface QuizAnalytics {
  quiz_id: string;
  total_attempts: number;
  unique_users: number;
  avg_score: number;
  min_score: number | null;
  max_score: number | null;
  stddev_score: number | null;
  score_distribution: { from: number; to: number; count: number }[];
  questions: { question_id: string; attempts: number; correct_count: number; correct_rate: number; avg_points: number }[];
}

export interface UserAnalytics {
  user_id: string;
  quizzes_taken: number;
  total_attempts: number;
  avg_score: number;
  min_score: number | null;
  max_score: number | null;
  last_graded_at: string | null;
}

const BUCKETS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: (i + 1) * 10 }));
// Written out bucket by bucket, not with floor(score / 10), so it does not share the API's formula.
const bucketColumns = BUCKETS.map(
  ({ from, to }, i) => `coalesce(sum(g.score >= ${from} AND g.score ${to === 100 ? "<=" : "<"} ${to}), 0) AS b${i}`,
).join(", ");

/** Three statements: per-quiz totals, per-question statistics, per-user totals (graded submissions only). */
export function recomputeSql(): string[] {
  return [
    `WITH m AS (SELECT quiz_id, avg(score) AS mean FROM submissions WHERE status = 'graded' GROUP BY quiz_id)
     SELECT g.quiz_id, count(*) AS n, count(DISTINCT g.user_id) AS users, avg(g.score) AS mean, min(g.score) AS lo, max(g.score) AS hi,
       avg((g.score - m.mean) * (g.score - m.mean)) AS variance, ${bucketColumns}
     FROM submissions g JOIN m ON m.quiz_id = g.quiz_id WHERE g.status = 'graded' GROUP BY g.quiz_id`,
    `SELECT s.quiz_id, json_extract(r.value, '$.question_id') AS question_id, count(*) AS attempts,
       sum(json_extract(r.value, '$.correct')) AS correct_count, avg(json_extract(r.value, '$.points_earned')) AS avg_points
     FROM submissions s, json_each(s.results) r WHERE s.status = 'graded' GROUP BY 1, 2`,
    `SELECT user_id, count(*) AS n, count(DISTINCT quiz_id) AS quizzes, avg(score) AS mean, min(score) AS lo, max(score) AS hi, max(graded_at) AS last
     FROM submissions WHERE status = 'graded' GROUP BY user_id`,
  ];
}

const TOLERANCE = 1e-9;
const roundTo = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/**
 * The API rounds to `decimals` places; `actual` must be the exact value rounded the same way
 * (within 1e-9), or either neighbour when the exact value sits on a rounding midpoint (as in
 * test/support/recompute.ts's expectRounded).
 */
function rounded(actual: number | null | undefined, exact: number | null, decimals: number): boolean {
  if (exact === null || actual === null || actual === undefined) return (actual ?? null) === exact;
  const scale = 10 ** decimals;
  const candidates = [roundTo(exact, decimals)];
  const fraction = exact * scale - Math.floor(exact * scale);
  if (Math.abs(fraction - 0.5) / scale <= TOLERANCE)
    candidates.push(Math.floor(exact * scale) / scale, Math.ceil(exact * scale) / scale);
  return candidates.some((c) => Math.abs(actual - c) <= TOLERANCE);
}

export function compareQuiz(api: Map<string, QuizAnalytics>, totals: any[], questions: any[]): string[] {
  const problems: string[] = [];
  const byQuiz = new Map(totals.map((t) => [t.quiz_id as string, t]));
  for (const [id, a] of api) {
    const t = byQuiz.get(id);
    const n = Number(t?.n ?? 0);
    const exact = {
      total_attempts: n,
      unique_users: Number(t?.users ?? 0),
      avg_score: n > 0 ? Number(t.mean) : 0,
      min_score: n > 0 ? Number(t.lo) : null,
      max_score: n > 0 ? Number(t.hi) : null,
      stddev_score: n > 0 ? Math.sqrt(Number(t.variance)) : null,
    };
    const bad = (field: string, got: unknown, want: unknown) =>
      problems.push(`${id}.${field}: API ${JSON.stringify(got)}, recomputed ${JSON.stringify(want)}`);
    if (!a) {
      bad("analytics", a, "an answer");
      continue;
    }
    if (a.total_attempts !== exact.total_attempts) bad("total_attempts", a.total_attempts, exact.total_attempts);
    if (a.unique_users !== exact.unique_users) bad("unique_users", a.unique_users, exact.unique_users);
    for (const f of ["avg_score", "min_score", "max_score", "stddev_score"] as const)
      if (!rounded(a[f], exact[f], 2)) bad(f, a[f], exact[f]);
    const distribution = BUCKETS.map((b, i) => ({ ...b, count: Number(t?.[`b${i}`] ?? 0) }));
    if (JSON.stringify(a.score_distribution) !== JSON.stringify(distribution))
      bad("score_distribution", a.score_distribution, distribution);
    const recomputed = new Map(questions.filter((q) => q.quiz_id === id).map((q) => [q.question_id as string, q]));
    for (const q of a.questions) {
      const e = recomputed.get(q.question_id);
      recomputed.delete(q.question_id);
      if (!e) {
        if (q.attempts !== 0 || q.correct_count !== 0 || q.avg_points !== 0)
          bad(`questions.${q.question_id}`, q, "no graded answers");
        continue;
      }
      if (q.attempts !== e.attempts) bad(`questions.${q.question_id}.attempts`, q.attempts, e.attempts);
      if (q.correct_count !== e.correct_count) bad(`questions.${q.question_id}.correct_count`, q.correct_count, e.correct_count);
      if (!rounded(q.correct_rate, e.correct_count / e.attempts, 4))
        bad(`questions.${q.question_id}.correct_rate`, q.correct_rate, e.correct_count / e.attempts);
      if (!rounded(q.avg_points, e.avg_points, 6)) bad(`questions.${q.question_id}.avg_points`, q.avg_points, e.avg_points);
    }
    for (const missing of recomputed.keys()) bad(`questions.${missing}`, "not listed", "graded answers");
  }
  return problems;
}

export function compareUser(api: Map<string, UserAnalytics>, totals: any[]): string[] {
  const problems: string[] = [];
  const byUser = new Map(totals.map((t) => [t.user_id as string, t]));
  for (const [id, a] of api) {
    const t = byUser.get(id);
    const n = Number(t?.n ?? 0);
    const bad = (field: string, got: unknown, want: unknown) =>
      problems.push(`${id}.${field}: API ${JSON.stringify(got)}, recomputed ${JSON.stringify(want)}`);
    if (!a) {
      bad("analytics", a, "an answer");
      continue;
    }
    if (a.total_attempts !== n) bad("total_attempts", a.total_attempts, n);
    if (a.quizzes_taken !== Number(t?.quizzes ?? 0)) bad("quizzes_taken", a.quizzes_taken, t?.quizzes ?? 0);
    if (!rounded(a.avg_score, n > 0 ? Number(t.mean) : 0, 2)) bad("avg_score", a.avg_score, t?.mean ?? 0);
    if (!rounded(a.min_score, n > 0 ? Number(t.lo) : null, 2)) bad("min_score", a.min_score, t?.lo ?? null);
    if (!rounded(a.max_score, n > 0 ? Number(t.hi) : null, 2)) bad("max_score", a.max_score, t?.hi ?? null);
    if (a.last_graded_at !== (t?.last ?? null)) bad("last_graded_at", a.last_graded_at, t?.last ?? null);
  }
  return problems;
}
