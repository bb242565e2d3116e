// The load generator, in its own process (forked by bench/load.ts) so that its CPU time is not
// spent on the bench's event loop: autocannon drives one spec at a time and reports over IPC.
import autocannon from "autocannon";
import { itemAt, type LoadResult, type LoadSpec, type RunnerMessage, type RunnerReply } from "./load-spec";

/** Exact percentile of sorted values (nearest rank). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function run(spec: LoadSpec): Promise<LoadResult> {
  let k = 0;
  const statuses: Record<string, number> = {};
  // autocannon's own histogram keeps whole milliseconds; these are the exact times (ms, float),
  // of 2xx answers only, as autocannon's latency figures are.
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.origin,
        method: spec.method,
        headers: spec.headers,
        connections: spec.connections,
        duration: spec.durationSeconds,
        requests: [
          {
            setupRequest: (req) => {
              const item = itemAt(spec, spec.start + k++);
              return { ...req, path: item.path, ...(item.body === undefined ? {} : { body: item.body }) };
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        resolve({
          requestsPerSecond: result.requests.average,
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          total: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statuses,
          itemsUsed: k,
        });
      },
    );
    instance.on("response", (_client, status: number, _bytes: number, ms: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
}

const send = (reply: RunnerReply) => process.send?.(reply);

process.on("message", (message: RunnerMessage) => {
  if (message.type === "exit") process.exit(0);
  run(message.spec).then(
    (result) => send({ type: "result", id: message.id, result }),
    (error: unknown) => send({ type: "error", id: message.id, message: String(error) }),
  );
});
