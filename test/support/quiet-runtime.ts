// vitest globalSetup (runs in vitest's own Node process, where the pool writes workerd's log):
// drops the lines of that log that say nothing about the code under test.
//   - "WebSocket peer disconnected": workerd's note that the pool closed a runtime after its files.
//   - "stack: …/workerd@5200ac5 …": return addresses inside workerd, without symbols; the line
//     before it (the error itself) still prints.
//   - "A header value for "X-Request-Id" contains non-ASCII characters": workerd's warning when a
//     test builds a request with such a header on purpose (the fuzz suite's near misses, an
//     X-Request-Id the API must replace). The warning for a header the worker sets still prints.
const NOISE = [
  /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected$/,
  /^stack:( \S+\/workerd@[0-9a-f]+)+$/,
  /^A header value for "(Authorization|X-API-Key|X-Request-Id|Idempotency-Key|X-D1-Bookmark|Content-Type|Accept)" contains non-ASCII characters: /i,
];

const FILTERED = Symbol.for("quiz-api.quiet-runtime");

export default function setup() {
  // Each workerd project names this setup; the first one filters for all.
  const stderr = process.stderr as typeof process.stderr & { [FILTERED]?: true };
  if (stderr[FILTERED]) return;
  stderr[FILTERED] = true;
  const write = process.stderr.write.bind(process.stderr);
  let partial = "";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = partial + (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const lines = text.split("\n");
    partial = lines.pop() ?? "";
    const kept = lines.filter((line) => !NOISE.some((noise) => noise.test(line)));
    if (kept.length === 0) {
      const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      done?.();
      return true;
    }
    return (write as (c: string, ...r: unknown[]) => boolean)(`${kept.join("\n")}\n`, ...rest);
  }) as typeof process.stderr.write;
  return () => {
    if (partial) write(partial);
    process.stderr.write = write;
    delete stderr[FILTERED];
  };
}
