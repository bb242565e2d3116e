/** The fuzz run's summary, and its text form (also used by scripts/fuzz.ts, in Node). */
interface FuzzFailure {
  op: string;
  mutation: string;
  problems: string[];
  request: { method: string; url: string; headers: [string, string][]; body?: string; bodyBytes: number };
  status: number;
  answer: string;
}

export interface FuzzSummary {
  seed: number;
  runs: number;
  sent: number;
  unsendable: number;
  unsendableReasons: string[];
  durationMs: number;
  operations: number;
  statuses: Record<string, number>;
  byMutation: Record<string, Record<string, number>>;
  failureCount: number;
  failures: FuzzFailure[];
  undocumented: Record<string, number>;
  /** Statuses of the valid requests, by operation. */
  validByOp: Record<string, Record<string, number>>;
  /** Time spent waiting for answers, by request kind. */
  msByKind: Record<string, number>;
}

export function formatSummary(s: FuzzSummary): string {
  const lines: string[] = [];
  const rate = s.durationMs > 0 ? (s.sent / (s.durationMs / 1000)).toFixed(0) : "?";
  lines.push(
    `fuzz: seed ${s.seed}, ${s.sent} requests over ${s.operations} operations in ${(s.durationMs / 1000).toFixed(1)} s (${rate}/s)${s.unsendable ? `, ${s.unsendable} not sendable` : ""}`,
  );
  for (const r of s.unsendableReasons) lines.push(`  not sendable: ${r}`);
  lines.push(
    `status histogram: ${Object.entries(s.statuses)
      .map(([k, v]) => `${k}×${v}`)
      .join("  ")}`,
  );
  const fives = Object.entries(s.statuses)
    .filter(([k]) => Number(k) >= 500)
    .reduce((n, [, v]) => n + v, 0);
  lines.push(`5xx: ${fives}; failing answers: ${s.failureCount}`);
  lines.push("by request kind:");
  for (const [m, statuses] of Object.entries(s.byMutation).sort())
    lines.push(
      `  ${m.padEnd(36)} ${Object.entries(statuses)
        .map(([k, v]) => `${k}×${v}`)
        .join(" ")
        .padEnd(40)} ${((s.msByKind[m] ?? 0) / 1000).toFixed(1)} s`,
    );
  lines.push("valid requests, by operation:");
  for (const [op, statuses] of Object.entries(s.validByOp).sort())
    lines.push(
      `  ${op.padEnd(52)} ${Object.entries(statuses)
        .map(([k, v]) => `${k}×${v}`)
        .join(" ")}`,
    );
  if (Object.keys(s.undocumented).length > 0) {
    lines.push("answers whose status the operation does not document:");
    for (const [k, v] of Object.entries(s.undocumented).sort()) lines.push(`  ${k} (×${v})`);
  }
  for (const f of s.failures) {
    lines.push(`FAIL ${f.op} [${f.mutation}] → ${f.status}: ${f.problems.join("; ")}`);
    lines.push(`  ${f.request.method} ${f.request.url}`);
    for (const [k, v] of f.request.headers) lines.push(`  ${k}: ${v}`);
    if (f.request.body !== undefined) lines.push(`  body (${f.request.bodyBytes} bytes): ${f.request.body}`);
    lines.push(`  answer: ${f.answer}`);
  }
  if (s.failureCount > s.failures.length) lines.push(`… and ${s.failureCount - s.failures.length} more failing answers`);
  return lines.join("\n");
}
