// What the bench asks the load runner (bench/load-runner.ts, a separate process) to do, and
// what it answers. Plain data: it crosses the IPC channel.

export interface LoadItem {
  path: string;
  body?: string;
}

export interface LoadSpec {
  /** http://127.0.0.1:<port> */
  origin: string;
  method: "GET" | "POST" | "PUT";
  headers: Record<string, string>;
  /**
   * Requests are made from these items in order, wrapping around; the k-th request of a run
   * uses index `start + k`, and `{n}` in its body becomes that index (unique within a bench run
   * as long as the caller moves `start` on by `itemsUsed`).
   */
  items: LoadItem[];
  start: number;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** autocannon's mean of the per-second request counts. */
  requestsPerSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status code → responses. */
  statuses: Record<string, number>;
  /** Items consumed (requests built, some possibly unsent when the run ended). */
  itemsUsed: number;
}

export type RunnerMessage = { type: "run"; id: number; spec: LoadSpec } | { type: "exit" };
export type RunnerReply = { type: "result"; id: number; result: LoadResult } | { type: "error"; id: number; message: string };

/** The request for index `i` of a spec. */
export function itemAt(spec: Pick<LoadSpec, "items">, i: number): LoadItem {
  const item = spec.items[i % spec.items.length];
  if (!item) throw new Error("a load spec needs at least one item");
  return item.body === undefined ? item : { path: item.path, body: item.body.replaceAll("{n}", String(i)) };
}
