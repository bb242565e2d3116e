import { allowedAttempts } from "../../domain/attempts";
import { readSettings } from "../../domain/quiz-settings";
import type { Database } from "../../env";
import { notFound } from "../../lib/errors";
import type { LearnerGrant } from "../../sessions/learner-sessions";

/** How many questions a submission presents: those without a pool, plus each named pool's pick (at most its size). */
function presentedCount(pools: { pool: string | null; n: number }[], picks: { pool: string; pick: number }[]): number {
  const pick = new Map(picks.map((p) => [p.pool, p.pick]));
  return pools.reduce((sum, { pool, n }) => sum + (pool === null || !pick.has(pool) ? n : Math.min(n, pick.get(pool) ?? 0)), 0);
}

/** GET /v1/learner-sessions/current: one batch of five reads. */
export async function currentSession(db: Database, grant: LearnerGrant) {
  const d1 = db.$client;
  const [quizzes, users, pools, extra, submissions] = await d1.batch<Record<string, unknown>>([
    d1.prepare("SELECT id, title, description, settings FROM quizzes WHERE id = ?").bind(grant.quizId),
    d1.prepare("SELECT id, name FROM users WHERE id = ? AND deleted_at IS NULL").bind(grant.userId),
    d1.prepare("SELECT pool, count(*) AS n FROM questions WHERE quiz_id = ? GROUP BY pool").bind(grant.quizId),
    d1.prepare("SELECT extra_attempts FROM accommodations WHERE quiz_id = ? AND user_id = ?").bind(grant.quizId, grant.userId),
    d1
      .prepare("SELECT id, status, score, created_at, deadline_at FROM submissions WHERE quiz_id = ? AND user_id = ? ORDER BY id")
      .bind(grant.quizId, grant.userId),
  ]);
  const quiz = quizzes?.results[0] as { id: string; title: string; description: string; settings: string } | undefined;
  const user = users?.results[0] as { id: string; name: string | null } | undefined;
  if (!quiz || !user) throw notFound("Learner session");
  const settings = readSettings(JSON.parse(quiz.settings));
  const rows = (submissions?.results ?? []) as {
    id: string;
    status: string;
    score: number | null;
    created_at: string;
    deadline_at: string | null;
  }[];
  const extraAttempts = Number((extra?.results[0] as { extra_attempts?: number } | undefined)?.extra_attempts ?? 0);
  return {
    session: { id: grant.sessionId, expires_at: grant.expiresAt, return_url: grant.returnUrl },
    user: { id: user.id, name: user.name },
    quiz: {
      id: quiz.id,
      title: quiz.title,
      description: quiz.description,
      questions: presentedCount((pools?.results ?? []) as { pool: string | null; n: number }[], settings.pools),
      settings: {
        time_limit_seconds: settings.time_limit_seconds,
        available_from: settings.available_from,
        available_until: settings.available_until,
        max_attempts: settings.max_attempts,
        show_correct_answers: settings.show_correct_answers,
      },
    },
    attempts: { used: rows.length, allowed: allowedAttempts(settings.max_attempts, extraAttempts) },
    submissions: rows.map((r) => ({
      id: r.id,
      status: r.status,
      score: r.score,
      created_at: r.created_at,
      deadline_at: r.deadline_at,
    })),
  };
}
