// The bench's baseline: GET /v1/quizzes?limit=20 answered with the app's JSON body, from the one
// D1 query the app runs for it, and nothing else — no router, no middleware, no auth, no rate
// limit, no validation, no logging. Served by the same Miniflare, on the same D1, as the app.
import { LIST_QUIZZES_SQL } from "./list-quizzes-sql";

const PAGE_SIZE = 20;

type Row = [
  id: string,
  title: string,
  description: string,
  settings: string,
  createdAt: string,
  updatedAt: string,
  questions: number,
];

/** src/lib/pagination.ts encodeCursor, inlined: importing it would bring zod into the baseline. */
const encodeCursor = (after: string) =>
  btoa(JSON.stringify({ v: 1, after }))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    if (request.method !== "GET" || new URL(request.url).pathname !== "/v1/quizzes") return new Response(null, { status: 404 });
    // drizzle reads selects with raw() (arrays of values) too.
    const rows = await env.DB.prepare(LIST_QUIZZES_SQL)
      .bind(PAGE_SIZE + 1)
      .raw<Row>();
    const page = rows.slice(0, PAGE_SIZE);
    const quizzes = page.map(([id, title, description, settings, created_at, updated_at, questions]) => ({
      id,
      title,
      description,
      questions: Number(questions),
      settings: JSON.parse(settings) as unknown,
      created_at,
      updated_at,
    }));
    const last = page.at(-1);
    const next_cursor = rows.length > PAGE_SIZE && last ? encodeCursor(last[0]) : null;
    return new Response(JSON.stringify({ quizzes, next_cursor }), {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  },
};
