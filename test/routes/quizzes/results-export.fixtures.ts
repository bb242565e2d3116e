import { env, exports } from "cloudflare:workers";
import { parse } from "csv-parse/browser/esm/sync";
import { expect } from "vitest";
import { type AnswerOf, BASE, callRaw, defaultKey, type KnownPath } from "../../support/call";

/**
 * What the results export's tests share: reading an export back (CSV through csv-parse, a real
 * RFC 4180 parser, strict about quotes and column counts; NDJSON line by line), seeding many
 * graded submissions with SQL, and a D1 binding that notes every page the export reads.
 */

export const exportPath = (quizId: string, format: string, shape: string, extra = "") =>
  `/v1/quizzes/${quizId}/results/export?format=${format}&shape=${shape}${extra}` as const;

/** An export read to its end (as bytes, then UTF-8: workerd warns when .text() reads a type it does not know as text). */
export async function exported(quizId: string, format: "csv" | "ndjson", shape: "submissions" | "answers", extra = "") {
  const res = await exports.default.fetch(
    new Request(`${BASE}${exportPath(quizId, format, shape, extra)}`, {
      headers: { authorization: `Bearer ${await defaultKey()}` },
    }),
  );
  const text = new TextDecoder().decode(await res.arrayBuffer());
  expect(res.status, text).toBe(200);
  return { headers: res.headers, text };
}

/** A call that must succeed; its JSON (a GET without a body, else a POST). */
export async function ok<P extends KnownPath>(path: P): Promise<AnswerOf<P>["json"]>;
export async function ok<P extends KnownPath>(
  path: P,
  body: unknown,
  method?: "POST",
): Promise<AnswerOf<P, { method: "POST" }>["json"]>;
export async function ok(path: KnownPath, body?: unknown, method?: "POST") {
  const res = await callRaw(path, { body, method });
  expect(res.status, res.text).toBeLessThan(300);
  return res.json;
}
export const newUser = async () =>
  (await ok("/v1/users", { name: "Ada", email: `${crypto.randomUUID()}@example.com` })).id as string;
export const submit = async (quizId: string, userId: string, answers: unknown[]) =>
  (await ok(`/v1/quizzes/${quizId}/submissions`, { user_id: userId, answers })).id as string;
export const grade = (id: string) => ok(`/v1/submissions/${id}/grade`, undefined, "POST");

/** Every record of a CSV export, the header first: each ends with CRLF, and each has the header's column count. */
export function csvRows(text: string): string[][] {
  expect(text.endsWith("\r\n")).toBe(true);
  return parse(text, { record_delimiter: "\r\n", relax_quotes: false, relax_column_count: false }) as string[][];
}

/** The records of a CSV export as objects keyed by the header's columns, in file order. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = csvRows(text);
  return rows.map((row) => Object.fromEntries((header ?? []).map((column, i) => [column, row[i] ?? ""])));
}

/** Every line of an NDJSON export parsed on its own; the body ends with a line feed (or is empty). */
export function ndjsonRows(text: string): Record<string, unknown>[] {
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

/**
 * Text a spreadsheet could run (docs/api.md): a tab, CR or LF first, or = + - @ (or a fullwidth or
 * small form of one) after any whitespace or invisible characters. The rule, restated for the tests.
 */
export const FORMULA_LIKE = /^(?:[\t\r\n]|[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}]*[=+\-@＝＋－＠﹦﹢﹣﹫])/u;

/** The CSV cell an exported value must read back as (docs/api.md): the rule, restated for the tests. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return FORMULA_LIKE.test(text) ? `'${text}` : text;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** A tag for ids made by SQL: 9 characters of the ULID alphabet, fresh per call. */
const freshTag = () =>
  crypto
    .randomUUID()
    .replaceAll("-", "")
    .slice(0, 9)
    .replace(/[^0-7]/g, "0");

/**
 * `count` graded submissions of the quiz, inserted with SQL (grading 100 000 through the API would
 * take many minutes): `users` users, attempts numbered per user, every presented question
 * answered `true` and worth 1 point when bit k of the row number is set. Ids and created_at come
 * from SQL expressions of `i` (1-based), so that a test can make their orders disagree.
 */
export async function seedGraded(
  quizId: string,
  questionIds: string[],
  count: number,
  options: { users: number; createdAt?: string; id?: string },
) {
  const tag = freshTag();
  const q = questionIds.length;
  await env.DB.prepare(
    `WITH RECURSIVE n(u) AS (SELECT 1 UNION ALL SELECT u + 1 FROM n WHERE u < ?1)
     INSERT INTO users (id, name, email, email_normalized, role, created_at, updated_at)
     SELECT printf('user_%s%017d', ?2, u), 'Seeded', printf('e%s-%d@example.com', ?2, u), printf('e%s-%d@example.com', ?2, u), 'student', ${NOW}, ${NOW} FROM n`,
  )
    .bind(options.users, tag)
    .run();
  const keys = JSON.stringify(questionIds);
  const entry = (field: "answers" | "results") =>
    `(SELECT json_group_array(json_object('question_id', json_extract(?4, '$[' || k.value || ']'), ${
      field === "answers"
        ? "'response', json('true')"
        : "'version', 1, 'correct', json(CASE WHEN (i >> k.value) & 1 THEN 'true' ELSE 'false' END), 'points_earned', (i >> k.value) & 1, 'points_possible', 1"
    })) FROM json_each(?5) k)`;
  const right = `(SELECT sum((i >> k.value) & 1) FROM json_each(?5) k)`;
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO submissions (id, quiz_id, user_id, attempt, status, answers, answers_revision, score, points_earned, points_possible,
       feedback, results, grade_token, graded_by, created_at, updated_at, graded_at)
     SELECT ${options.id ?? "printf('sub_%s%017d', ?3, i)"}, ?2, printf('user_%s%017d', ?3, (i - 1) % CAST(?6 AS INTEGER) + 1), (i - 1) / CAST(?6 AS INTEGER) + 1, 'graded',
       ${entry("answers")}, 0, round(${right} * 100.0 / ${q}, 2), ${right}, ${q}, 'seeded', ${entry("results")}, 'seed-' || i, 'request',
       ${options.createdAt ?? NOW}, ${NOW}, ${NOW} FROM n`,
  )
    .bind(count, quizId, tag, keys, JSON.stringify(questionIds.map((_, k) => k)), options.users)
    .run();
  // Their kept grades, as the grading batch keeps them.
  const mine = "FROM submissions AS o WHERE o.quiz_id = s.quiz_id AND o.user_id = s.user_id ORDER BY o.attempt";
  await env.DB.prepare(
    `INSERT INTO grades (quiz_id, user_id, attempts, first_attempt, first_score, latest_attempt, latest_score, highest_score, score_sum, updated_at)
     SELECT quiz_id, user_id, count(*), min(attempt), (SELECT o.score ${mine} LIMIT 1), max(attempt), (SELECT o.score ${mine} DESC LIMIT 1),
       max(score), sum(score), ${NOW}
     FROM submissions AS s WHERE quiz_id = ?1 AND user_id LIKE 'user_' || ?2 || '%' GROUP BY user_id`,
  )
    .bind(quizId, tag)
    .run();
  return { tag };
}

/**
 * A copy of the D1 binding that tells `onPage` how many rows each page of the export returned,
 * read from the binding's answers (as test/binding-counter.ts reads rows read): the export's
 * page query is the one that orders submissions by created_at.
 */
export function pageNoting(binding: D1Database, onPage: (rows: number) => void): D1Database {
  const clone = <O extends object>(o: O): O => Object.create(Object.getPrototypeOf(o), Object.getOwnPropertyDescriptors(o));
  const copy = clone(binding) as D1Database & { fetcher?: Fetcher; alwaysPrimarySession?: { fetcher?: Fetcher } };
  const real = copy.fetcher;
  if (!real) throw new Error("the D1 binding has no fetcher");
  const fetcher = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await real.fetch(input, init);
      const sent = JSON.parse(String(init?.body ?? "null")) as { sql?: string } | { sql?: string }[] | null;
      const statements = Array.isArray(sent) ? sent : [sent];
      if (statements.some((s) => /order by "submissions"\."created_at"/.test(s?.sql ?? ""))) {
        const answer = (await response.clone().json()) as { results?: unknown } | { results?: unknown }[];
        const results = (Array.isArray(answer) ? answer[0] : answer)?.results as unknown[] | { rows?: unknown[] } | undefined;
        onPage(Array.isArray(results) ? results.length : (results?.rows?.length ?? 0));
      }
      return response;
    },
  } as Fetcher;
  copy.fetcher = fetcher;
  if (copy.alwaysPrimarySession) {
    copy.alwaysPrimarySession = clone(copy.alwaysPrimarySession);
    copy.alwaysPrimarySession.fetcher = fetcher;
  }
  return copy;
}
