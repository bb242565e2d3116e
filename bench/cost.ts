// What a request costs at Cloudflare's list prices: the endpoint's own binding calls (counted
// through the counting worker, D1's rows from its own meta), the workerd CPU time per request
// measured under load, and the credential's background work (key lookup, rate limiter, usage
// flushes) played at 1 and 1 000 requests a second on a virtual clock with the deployed settings.
import { config } from "../src/lib/config";
import type { CredentialRun } from "./measure";
import { type CallCounts, table } from "./report";
import { emptyTally, type Tally } from "./tally";

/**
 * Workers Paid list prices, US$ per million units, beyond the plan's included amounts (the $5 a
 * month, 10 M requests, 30 M CPU-ms, 10 M KV reads, 1 M KV writes, 25 B D1 rows read, 50 M D1
 * rows written, 1 M queue operations): the marginal cost of one more request.
 */
export const PRICES = {
  request: 0.3,
  cpuMs: 0.02,
  d1RowRead: 0.001,
  d1RowWritten: 1.0,
  kvRead: 0.5,
  /** Writes, deletes and lists are priced alike. */
  kvWrite: 5.0,
  /** A queue message is three operations: written, read, deleted (each per 64 KB). */
  queueOperation: 0.4,
} as const;

export const QUEUE_OPERATIONS_PER_MESSAGE = 3;
export const TARGET_LIST_COST = 0.4;
export const COST_RATES = [1, 1000] as const;

/** Per request: the endpoint's calls (before and after the response) over the requests counted. */
function ownPerRequest(c: CallCounts): Tally {
  const per = {} as Tally;
  for (const k of Object.keys(c.inRequest.own) as (keyof Tally)[])
    per[k] = (c.inRequest.own[k] + c.background.own[k]) / c.requests;
  return per;
}

function credentialPerRequest(run: CredentialRun): Tally {
  const per = {} as Tally;
  for (const k of Object.keys(run.counts) as (keyof Tally)[]) per[k] = run.counts[k] / run.requests;
  return per;
}

interface Priced {
  total: number;
  parts: { requests: number; cpu: number; d1: number; kv: number; queues: number };
}

function price(cpuMs: number, own: Tally, credential: Tally): Priced {
  const sum = (k: keyof Tally) => own[k] + credential[k];
  const parts = {
    requests: PRICES.request,
    cpu: cpuMs * PRICES.cpuMs,
    d1: sum("rowsRead") * PRICES.d1RowRead + sum("rowsWritten") * PRICES.d1RowWritten,
    kv: sum("kvReads") * PRICES.kvRead + (sum("kvWrites") + sum("kvDeletes") + sum("kvLists")) * PRICES.kvWrite,
    queues: sum("queueMessages") * QUEUE_OPERATIONS_PER_MESSAGE * PRICES.queueOperation,
  };
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts };
}

const dollars = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(3)}`;
const figure = (n: number) => (n === 0 ? "0" : n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(2));

/** The runs the table needs: per credential kind, one per rate. */
export interface CredentialRuns {
  api_key: Record<(typeof COST_RATES)[number], CredentialRun>;
  ip: Record<(typeof COST_RATES)[number], CredentialRun>;
}

/** The limit each run is played with: the deployed default where it admits the rate, else the lowest that does. */
export function limitFor(kind: "api_key" | "ip", rate: number): number {
  const policy = kind === "ip" ? config({}).rateLimits.token : config({}).rateLimits.default;
  return Math.max(policy.limit, rate * policy.windowSeconds);
}

export function costSection(
  calls: CallCounts[],
  cpuByLabel: Map<string, number>,
  runs: CredentialRuns,
  listLabel: string,
): { markdown: string; listCosts: number[] } {
  const rows: string[][] = [];
  let listCosts: number[] = [];
  let listBreakdown: Priced[] = [];
  for (const c of calls) {
    const kind = c.key === "token" ? "ip" : "api_key";
    const cpu = cpuByLabel.get(c.label) ?? Number.NaN;
    const own = ownPerRequest(c);
    const priced = COST_RATES.map((rate) => price(cpu, own, credentialPerRequest(runs[kind][rate])));
    if (c.label === listLabel) {
      listCosts = priced.map((p) => p.total);
      listBreakdown = priced;
    }
    rows.push([
      c.label,
      figure(cpu),
      figure(own.rowsRead),
      figure(own.rowsWritten),
      figure(own.kvReads),
      figure(own.kvWrites + own.kvDeletes + own.kvLists),
      figure(own.queueMessages * QUEUE_OPERATIONS_PER_MESSAGE),
      ...priced.map((p) => dollars(p.total)),
    ]);
  }
  const credentialRows = (["api_key", "ip"] as const).flatMap((kind) =>
    COST_RATES.map((rate) => {
      const run = runs[kind][rate];
      const per = credentialPerRequest(run);
      const priced = price(0, emptyTally(), per);
      return [
        kind === "api_key" ? "an API key (every /v1 endpoint above)" : "a client IP at /oauth/token",
        `${rate.toLocaleString("en-US")} req/s`,
        `${run.limit.toLocaleString("en-US")} / ${run.windowSeconds} s`,
        `${run.requests.toLocaleString("en-US")} (${run.refused} refused)`,
        figure(per.kvReads),
        figure(per.kvWrites),
        figure(per.rowsWritten),
        figure(per.d1),
        dollars(priced.total - PRICES.request),
      ];
    }),
  );
  const met = listCosts.every((c) => c <= TARGET_LIST_COST);
  const breakdown = (p: Priced | undefined) =>
    p
      ? `requests ${dollars(p.parts.requests)} + CPU ${dollars(p.parts.cpu)} + D1 ${dollars(p.parts.d1)} + KV ${dollars(p.parts.kv)} + queues ${dollars(p.parts.queues)}`
      : "—";
  const markdown = [
    "## What a request costs at list prices (US$ per million requests)",
    "",
    `Prices (Workers Paid, beyond the included amounts): requests $${PRICES.request}/M, CPU $${PRICES.cpuMs}/M ms, D1 $${PRICES.d1RowRead}/M rows read and $${PRICES.d1RowWritten.toFixed(2)}/M rows written, KV $${PRICES.kvRead.toFixed(2)}/M reads and $${PRICES.kvWrite.toFixed(2)}/M writes, Queues $${PRICES.queueOperation.toFixed(2)}/M operations (${QUEUE_OPERATIONS_PER_MESSAGE} a message).`,
    "",
    table(
      [
        "Endpoint",
        "workerd CPU ms",
        "D1 rows read",
        "D1 rows written",
        "KV reads",
        "KV writes",
        "queue ops",
        "$/M at 1 req/s per credential",
        "$/M at 1 000 req/s per credential",
      ],
      rows,
    ),
    "",
    "The counts are the endpoint's own work per request (before and after the response, 40 requests through the counting worker; D1's rows from its meta). The prices add one Workers request, the CPU time measured under load (workerd's, which includes local D1 and KV work that production runs outside the Worker: an overestimate), and the credential's background work below.",
    "",
    "What the credential costs around every request (key lookup, rate limiter, usage flushes), per request, played on a virtual clock through the real code and local bindings with the deployed settings (usage written at most 55 s behind, the key read again every 9 s; the limit the deployed default, or at 1 000 req/s the lowest that admits the rate):",
    "",
    table(
      [
        "credential",
        "rate",
        "limit",
        "requests played",
        "KV reads",
        "KV writes",
        "D1 rows written",
        "D1 round trips",
        "$/M on top of the request",
      ],
      credentialRows,
    ),
    "",
    `Target: GET /v1/quizzes?limit=20 ≤ $${TARGET_LIST_COST.toFixed(2)} per million at both rates — measured ${listCosts.map(dollars).join(" at 1 req/s, ")} at 1 000 req/s: ${met ? "met ✅" : "missed ❌"}.`,
    `- at 1 req/s: ${breakdown(listBreakdown[0])}`,
    `- at 1 000 req/s: ${breakdown(listBreakdown[1])}`,
  ].join("\n");
  return { markdown, listCosts };
}
