// Load runs (autocannon, in the runner process) and binding-call counts (the counting worker).

import {
  BACKGROUND_SETTLE_MS,
  CONNECTIONS,
  COUNTED_REQUESTS,
  DURATION_SECONDS,
  progress,
  ROUNDS,
  sleep,
  WARMUP_SECONDS,
} from "./config";
import { cpuSeconds, workerdPids } from "./cpu";
import { COUNTING_HOST, type Endpoint } from "./endpoints";
import { request } from "./http";
import type { LoadRunner } from "./load";
import { itemAt, type LoadSpec } from "./load-spec";
import { type CallCounts, int, type MeasuredRun, ms } from "./report";
import { emptyTally, type Tally } from "./tally";

/**
 * One load run of an endpoint with the bench's connections, from where its items were left off
 * (`starts`, moved on by what the run used), and the workerd CPU it took, in ms.
 */
export async function loadOnce(
  runner: LoadRunner,
  origin: string,
  e: Pick<Endpoint, "key" | "method" | "headers" | "items">,
  starts: Map<string, number>,
  seconds: number,
  pids: number[],
  connections = CONNECTIONS,
) {
  const spec: LoadSpec = {
    origin,
    method: e.method,
    headers: e.headers,
    items: e.items,
    start: starts.get(e.key) ?? 0,
    connections,
    durationSeconds: seconds,
  };
  const cpuBefore = cpuSeconds(pids);
  const result = await runner.run(spec);
  const cpuMs = (cpuSeconds(pids) - cpuBefore) * 1000;
  starts.set(e.key, spec.start + result.itemsUsed);
  return { ...result, cpuMs };
}

/**
 * Load runs: a warm-up each, then rounds in which every endpoint runs once, so that drift (and
 * the other processes on this machine) hits all of them alike; ratios are taken round by round.
 */
export async function measure(
  runner: LoadRunner,
  origin: string,
  list: Pick<Endpoint, "key" | "method" | "headers" | "items">[],
  starts: Map<string, number>,
  rounds = ROUNDS,
  seconds = DURATION_SECONDS,
): Promise<Map<string, MeasuredRun[]>> {
  const results = new Map<string, MeasuredRun[]>(list.map((e) => [e.key, []]));
  const pids = workerdPids();
  const once = async (e: (typeof list)[number], seconds: number) => {
    const result = await loadOnce(runner, origin, e, starts, seconds, pids);
    const cpuMsPerRequest = pids.length > 0 && result.total > 0 ? result.cpuMs / result.total : Number.NaN;
    return { ...result, cpuMsPerRequest };
  };
  for (const e of list) await once(e, WARMUP_SECONDS);
  for (let round = 1; round <= rounds; round++) {
    progress(`round ${round} of ${rounds}`);
    // Every other round runs backwards, so that no endpoint always follows the same one.
    for (const e of round % 2 === 1 ? list : [...list].reverse()) {
      const r = await once(e, seconds);
      results.get(e.key)?.push(r);
      progress(
        `  ${e.key.padEnd(18)} ${int(r.requestsPerSecond).padStart(6)} req/s  p50 ${ms(r.p50)} ms  workerd CPU ${ms(r.cpuMsPerRequest)} ms/req${r.non2xx ? `  non-2xx ${JSON.stringify(r.statuses)}` : ""}`,
      );
    }
  }
  return results;
}

type Parts = { own: Tally; credential: Tally };
const add = (into: Tally, from: Tally) => {
  for (const [name, n] of Object.entries(from)) into[name as keyof Tally] = (into[name as keyof Tally] ?? 0) + n;
};

/** Binding calls per request: COUNTED_REQUESTS one at a time through the counting worker. */
export async function countCalls(
  origin: string,
  e: Pick<Endpoint, "key" | "label" | "method" | "headers" | "items">,
  starts: Map<string, number>,
): Promise<CallCounts> {
  const admin = { host: COUNTING_HOST };
  await request(origin, { method: "POST", path: "/__bench/reset", headers: admin });
  const inRequest: Parts = { own: emptyTally(), credential: emptyTally() };
  const start = starts.get(e.key) ?? 0;
  const t0 = performance.now();
  for (let k = 0; k < COUNTED_REQUESTS; k++) {
    const item = itemAt(e, start + k);
    const res = await request(origin, {
      method: e.method,
      path: item.path,
      headers: { ...e.headers, host: COUNTING_HOST },
      body: item.body,
    });
    if (res.status >= 300) throw new Error(`${e.label} through the counting worker → ${res.status}: ${res.text.slice(0, 300)}`);
    const counts = JSON.parse(String(res.headers["x-bench-counts"])) as Parts;
    add(inRequest.own, counts.own);
    add(inRequest.credential, counts.credential);
  }
  const rps = COUNTED_REQUESTS / ((performance.now() - t0) / 1000);
  starts.set(e.key, start + COUNTED_REQUESTS);
  await sleep(BACKGROUND_SETTLE_MS);
  const totals = (await request(origin, { method: "GET", path: "/__bench/counts", headers: admin })).json as Parts & {
    prepared: Record<string, number>;
  };
  const after = (part: keyof Parts) => {
    const t = emptyTally();
    add(t, totals[part]);
    for (const [name, n] of Object.entries(inRequest[part])) t[name as keyof Tally] -= n;
    return t;
  };
  return {
    label: e.label,
    key: e.key,
    requests: COUNTED_REQUESTS,
    inRequest,
    background: { own: after("own"), credential: after("credential") },
    rps,
    prepared: totals.prepared,
  };
}

/** What the counting worker's credential simulation answers (bench/counting-entry.ts). */
export interface CredentialRun {
  kind: "api_key" | "ip";
  requests: number;
  admitted: number;
  refused: number;
  limit: number;
  windowSeconds: number;
  usageFlushMs: number;
  counts: Tally;
}

/** One credential's background work at `rate` requests a second, played on a virtual clock. */
export async function credentialRun(
  origin: string,
  kind: "api_key" | "ip",
  rate: number,
  seconds: number,
  limit?: number,
): Promise<CredentialRun> {
  const query = new URLSearchParams({ kind, rate: String(rate), seconds: String(seconds) });
  if (limit !== undefined) query.set("limit", String(limit));
  const res = await request(origin, { method: "POST", path: `/__bench/credential?${query}`, headers: { host: COUNTING_HOST } });
  if (res.status !== 200) throw new Error(`credential simulation → ${res.status}: ${res.text.slice(0, 300)}`);
  return res.json as CredentialRun;
}
