import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import type { Database } from "../../src/env";
import { forgetSubscriptions } from "../../src/events/subscribers";
import { forgetDefaultKey } from "./call";

/**
 * Before each test file: the migrated schema, and no row, KV entry or R2 object left by the files before it.
 * The files of a project share one runtime (vitest's `isolate: false`): loading the worker's
 * modules once per runtime instead of once per file is most of what a file used to cost.
 */
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

const KEPT = new Set(["d1_migrations", "sqlite_sequence"]);
const { results: tables } = await env.DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
).all<{ name: string }>();
await env.DB.batch([
  env.DB.prepare("PRAGMA defer_foreign_keys = on"),
  ...tables.filter((t) => !KEPT.has(t.name)).map((t) => env.DB.prepare(`DELETE FROM "${t.name}"`)),
]);

for (let cursor: string | undefined; ; ) {
  const page: KVNamespaceListResult<unknown, string> = await env.KV.list(cursor ? { cursor } : {});
  await Promise.all(page.keys.map((k) => env.KV.delete(k.name)));
  if (page.list_complete) break;
  cursor = page.cursor;
}

for (const bucket of [env.UPLOADS, env.ASSETS_BUCKET]) {
  for (let cursor: string | undefined; ; ) {
    const page: R2Objects = await bucket.list(cursor ? { cursor } : {});
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    if (!page.truncated) break;
    cursor = page.cursor;
  }
}

// What this runtime's isolate remembers of the previous file's data: the admin key the helpers
// made, and the webhook endpoints' subscriptions (the API keys it cached belong to keys no file reuses).
forgetDefaultKey();
forgetSubscriptions(drizzle(env.DB) as Database);
