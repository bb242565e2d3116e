// The grade's baseline: POST /v1/submissions/{id}/grade answered by running exactly the D1 work
// the app's grade runs for that submission, and nothing else — its read (one batch of three
// selects) and its write (one batch: the claim, the running totals, the item sums, the grade, the
// kept grade and the event), then the app's answer body. No router, middleware, auth, rate limit,
// validation, scoring or logging. The write statements are the app's own (src/grading/grade.ts
// planGrade), planned by the bench in Node for each submission of a pool the app never grades
// (bench/grade-plans.ts) and handed over before the load; each plan is run once, as each grade
// claims its submission once. Served by the bench's Miniflare, on its D1, under the Host grade-sql.bench.

interface Statement {
  sql: string;
  params: unknown[];
}

interface Plan {
  statements: Statement[];
  /** The app's answer to this grade (gradeResponse of the graded row). */
  answer: string;
}

/** The grade's read: three statements over ?1, the submission's id (handed over with the plans). */
let read: string[] = [];
const plans = new Map<string, Plan>();

const GRADE_PATH = /^\/v1\/submissions\/([^/]+)\/grade$/;

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === "POST" && pathname === "/__bench/plans") {
      const body = (await request.json()) as { read: string[]; plans: ({ id: string } & Plan)[] };
      read = body.read;
      for (const { id, statements, answer } of body.plans) plans.set(id, { statements, answer });
      return Response.json({ plans: plans.size });
    }
    const id = request.method === "POST" ? GRADE_PATH.exec(pathname)?.[1] : undefined;
    if (id === undefined) return new Response(null, { status: 404 });
    const [submission] = await env.DB.batch(read.map((text) => env.DB.prepare(text).bind(id)));
    const plan = plans.get(id);
    if (!plan || !submission?.results.length) return new Response(null, { status: 404 });
    plans.delete(id);
    const [claim] = await env.DB.batch(plan.statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
    // The claim missed (graded already): the work was not the grade's.
    if (claim?.meta.changes !== 1) return new Response(null, { status: 409 });
    return new Response(plan.answer, { headers: { "content-type": "application/json; charset=utf-8" } });
  },
};
