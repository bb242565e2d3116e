// Local SQLite's write rate through D1: batches of single-row updates by primary key (what the
// grading batch's aggregate statements are), run inside workerd by the bench's SQL worker. The
// bound on grades a second that rows written alone would set, on this machine.
import type { LocalWorker } from "../scripts/local-worker";
import { SqlClient, type Statement } from "./sql-client";

const ROWS = 1000;
const BATCHES = 5;

export async function sqliteWriteRate(worker: LocalWorker): Promise<{ rowsPerSecond: number }> {
  const sql = new SqlClient(worker.url);
  await sql.run([
    { sql: "CREATE TABLE IF NOT EXISTS bench_write_rate (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)", params: [] },
    {
      sql: "INSERT OR IGNORE INTO bench_write_rate (id, n) WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?1) SELECT i, 0 FROM c",
      params: [ROWS],
    },
  ]);
  const batch: Statement[] = Array.from({ length: ROWS }, (_, i) => ({
    sql: "UPDATE bench_write_rate SET n = n + 1 WHERE id = ?1",
    params: [i + 1],
  }));
  const seconds: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const started = performance.now();
    await sql.run(batch);
    seconds.push((performance.now() - started) / 1000);
  }
  seconds.sort((a, b) => a - b);
  await sql.run([{ sql: "DROP TABLE bench_write_rate", params: [] }]);
  return { rowsPerSecond: ROWS / (seconds[Math.floor(seconds.length / 2)] as number) };
}
