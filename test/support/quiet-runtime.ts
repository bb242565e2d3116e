// Called by vitest.config.ts in vitest's own Node process, where the pool writes workerd's log:
// drops the lines of that log that say nothing about the code under test.
//   - "WebSocket peer disconnected": workerd's note that the pool closed a runtime after its files.
//   - "stack: …/workerd@5200ac5 …": return addresses inside workerd, without symbols; the lines
//     around it (the error itself) still print.
//   - "A header value for "X-Request-Id" contains non-ASCII characters": workerd's warning when a
//     test builds a request with such a header on purpose (the fuzz suite's near misses, an
//     X-Request-Id the API must replace). The warning for a header the worker sets still prints.
//   - workerd's own notes of a subrequest that failed before any answer — a DNS name that resolves
//     nowhere, a refused connection, a TLS handshake with a plain-HTTP server — and the rejection it
//     reports for it: the webhook and LTI suites aim deliveries at such addresses on purpose and
//     check that each is an ordinary failed attempt. Any other uncaught exception still prints.
const NOISE = [
  /^e = kj\/async-io-unix\.c\+\+:\d+: failed: DNS lookup failed\.; params\.host = /,
  /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: connect\(\): Connection refused$/,
  /^e = kj\/compat\/tls\.c\+\+:\d+: failed: OpenSSL error; message = error:[0-9a-f]+:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER/,
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: (Network connection lost\.|internal error; reference = [0-9a-z]+)$/,
  /^uncaught exception; exception = workerd\/jsg\/\S+value\.h:\d+: (disconnected: jsg\.Error: Network connection lost\.|failed: jsg\.Error: internal error; reference = [0-9a-z]+)$/,
  /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected$/,
  /^stack:( \S+\/workerd@[0-9a-f]+)+(;.*)?$/,
  /^A header value for "(Authorization|X-API-Key|X-Request-Id|Idempotency-Key|X-D1-Bookmark|Content-Type|Accept)" contains non-ASCII characters: /i,
];

const FILTERED = Symbol.for("quiz-api.quiet-runtime");

/** The pool writes workerd's log lines to stdout or stderr by their level: both are filtered. */
export function quietWorkerdLog(): void {
  for (const stream of [process.stdout, process.stderr]) filter(stream);
}

function filter(stream: NodeJS.WriteStream & { [FILTERED]?: true }): void {
  // Once per process, however often the config is loaded.
  if (stream[FILTERED]) return;
  stream[FILTERED] = true;
  const write = stream.write.bind(stream) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  // The pool writes each log line whole ("message\n"): a chunk is passed on as it came unless it
  // holds such a line, so that vitest's own live output (partial lines, cursor moves) is untouched.
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const lines = text.split("\n");
    if (!lines.some((line) => NOISE.some((noise) => noise.test(line)))) return write(chunk, ...rest);
    const kept = lines.filter((line) => !NOISE.some((noise) => noise.test(line)));
    if (kept.join("") === "") {
      const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      done?.();
      return true;
    }
    return write(kept.join("\n"), ...rest);
  }) as typeof stream.write;
}
