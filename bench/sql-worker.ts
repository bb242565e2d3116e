// Bench-only worker: runs batches of SQL statements against the bench's D1 from inside workerd.
// Seeding tens of megabytes through Miniflare's Node-side binding proxy costs a round trip per
// prepared statement; one HTTP request per batch of a few thousand statements does not.
// Served only by the bench's own Miniflare, on 127.0.0.1, under the Host sql.bench.

interface Statement {
  sql: string;
  params: unknown[];
}

export default {
  async fetch(request: Request, env: { DB: D1Database }): Promise<Response> {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const statements = (await request.json()) as Statement[];
    try {
      const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.params)));
      return Response.json({ changes: results.reduce((n, r) => n + (r.meta.changes ?? 0), 0) });
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  },
};
