// Markdown for the bench's results: tables, and the small statistics behind them.
import type { BundleSize } from "./bundle";
import type { LoadResult } from "./load-spec";
import type { Tally } from "./tally";

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "—");
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : "—");
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const pct = (ratio: number) => (Number.isFinite(ratio) ? `${Math.round(ratio * 100)} %` : "—");
const perRequest = (n: number) =>
  n === 0 ? "0" : n >= 0.995 || Number.isInteger(n) ? n.toFixed(n % 1 === 0 ? 0 : 2) : n.toFixed(3);

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A load run, with the CPU time workerd spent on it per response. */
export type MeasuredRun = LoadResult & { cpuMsPerRequest: number };

export interface EndpointRuns {
  label: string;
  runs: MeasuredRun[];
  /** Median over rounds of this endpoint's req/s ÷ the baseline's in the same round. */
  ratio?: number;
  /** The baseline's median workerd CPU per request ÷ this endpoint's. */
  cpuRatio?: number;
  note?: string;
}

export function summarize(runs: MeasuredRun[]) {
  return {
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpu: median(runs.map((r) => r.cpuMsPerRequest)),
    non2xx: runs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    total: runs.reduce((n, r) => n + r.total, 0),
  };
}

export function throughputTable(
  endpoints: EndpointRuns[],
  target: { key: string; ratio: number } | undefined,
  targetLabel?: string,
): string {
  const rows = endpoints.map((e) => {
    const s = summarize(e.runs);
    const ratio = e.ratio === undefined ? "1 (reference)" : pct(e.ratio);
    const flag =
      targetLabel && e.label === targetLabel && target ? (e.ratio !== undefined && e.ratio >= target.ratio ? " ✅" : " ❌") : "";
    return [
      e.label,
      int(s.rps),
      e.runs.map((r) => int(r.requestsPerSecond)).join(" / "),
      ms(s.p50),
      ms(s.p99),
      `${ratio}${flag}`,
      ms(s.cpu),
      e.cpuRatio === undefined ? "1 (reference)" : pct(e.cpuRatio),
      s.non2xx === 0 ? "0" : `${s.non2xx} of ${s.total}`,
      e.note ?? "",
    ];
  });
  return table(
    [
      "Endpoint",
      "req/s (median)",
      "req/s per run",
      "p50 ms",
      "p99 ms",
      "req/s vs baseline",
      "workerd CPU ms/req",
      "CPU: baseline ÷ endpoint",
      "non-2xx",
      "note",
    ],
    rows,
  );
}

export interface CallCounts {
  label: string;
  key: string;
  requests: number;
  /** The endpoint's own work, and the credential's (key lookup, rate limit, usage), before the response… */
  inRequest: { own: Tally; credential: Tally };
  /** … and after it (waitUntil). */
  background: { own: Tally; credential: Tally };
  rps: number;
  /** SQL text of each statement prepared, and how often. */
  prepared: Record<string, number>;
}

export function callsTable(rows: CallCounts[]): string {
  const per = (n: number, r: CallCounts) => perRequest(n / r.requests);
  return table(
    [
      "Endpoint",
      "D1 round trips",
      "D1 rows read",
      "D1 rows written",
      "KV reads",
      "KV writes",
      "queue messages",
      "after the response: D1 / KV writes / messages",
      "credential's part while counted: KV reads / KV writes / D1",
      "req/s while counted",
    ],
    rows.map((r) => {
      const own = r.inRequest.own;
      const bg = r.background.own;
      const cred = r.inRequest.credential;
      const credBg = r.background.credential;
      const sum = (k: keyof Tally) => own[k] + bg[k];
      return [
        r.label,
        per(sum("d1"), r),
        per(sum("rowsRead"), r),
        per(sum("rowsWritten"), r),
        per(sum("kvReads"), r),
        per(sum("kvWrites") + sum("kvDeletes") + sum("kvLists"), r),
        per(sum("queueMessages"), r),
        `${per(bg.d1, r)} / ${per(bg.kvWrites, r)} / ${per(bg.queueMessages, r)}`,
        `${per(cred.kvReads + credBg.kvReads, r)} / ${per(cred.kvWrites + credBg.kvWrites, r)} / ${per(cred.d1 + credBg.d1, r)}`,
        int(r.rps),
      ];
    }),
  );
}

export function bundleTable(rows: [label: string, size: BundleSize, target: boolean][], targetGzipKiB: number): string {
  return table(
    ["Build", "raw", "gzip", "wrangler says"],
    rows.map(([label, b, target]) => [
      label,
      kib(b.raw),
      `${kib(b.gzip)}${target ? (b.gzip <= targetGzipKiB * 1024 ? " ✅" : " ❌") : ""}`,
      b.wranglerReport ?? "",
    ]),
  );
}

export function compositionTable(parts: { name: string; bytes: number }[], top = 8): string {
  const total = parts.reduce((n, p) => n + p.bytes, 0);
  const shown = parts.slice(0, top);
  const rest = parts.slice(top).reduce((n, p) => n + p.bytes, 0);
  return table(
    ["Package (minified as deployed, before gzip)", "bytes", "share"],
    [...shown.map((p) => [p.name, kib(p.bytes), pct(p.bytes / total)]), ["everything else", kib(rest), pct(rest / total)]],
  );
}

/** Replaces the text between `<!-- name -->` and `<!-- /name -->` in `doc`, or appends it. */
export function replaceSection(doc: string, name: string, body: string): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const section = `${open}\n${body.trim()}\n${close}`;
  const from = doc.indexOf(open);
  const to = doc.indexOf(close);
  if (from >= 0 && to > from) return `${doc.slice(0, from)}${section}${doc.slice(to + close.length)}`;
  return `${doc.trimEnd()}\n\n${section}\n`;
}
