import type { Context } from "hono";

/**
 * The most of a request body read after the answer is decided: well past the largest body any
 * route accepts (an import's 10 MiB file; JSON bodies 1 MiB), so a client that sent a little too
 * much still gets its 413 on a healthy connection, while a body of tens of megabytes (Cloudflare
 * accepts up to 100 MB) is cancelled rather than received for nothing.
 */
const MAX_DRAINED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Every request body is read to its end before the answer leaves, whatever answered: a 401, 403,
 * 404, 405, 413, 415 or 429 decided before the body was read, `notFound`, `onError`, or a reader
 * that stopped early (the 413 of a streamed body, the OAuth endpoints' 16 KiB limit) or cancelled.
 * The app reads the body through a stream this middleware hands it; a cancel from the app stops
 * only that stream, and whatever the app left is drained here (at most MAX_DRAINED_BODY_BYTES,
 * counting what was read, then cancelled).
 *
 * Draining, not cancelling, is what keeps `wrangler dev` answering. wrangler's proxy keeps one
 * HTTP/1.1 connection open to the worker and sends the next request on it; the connection is
 * ready for it only once this request's body has been read off it. Left unread or cancelled, a
 * body of a few KiB up to about 1 MiB leaves the connection mid-request: the next request on it
 * fails ("503 Your worker restarted mid-request") or waits for a timeout (GETs stalled 5 to 35 s),
 * measured on wrangler 4.86 with both; drained, every following GET answered in milliseconds.
 * wrangler drains too, but only in bundles it builds (its dev middleware
 * "ensure-req-body-drained"), and this worker is built by scripts/build.ts (no_bundle = true).
 * Deployed, reading the rest of a small body costs next to nothing. Test: test/e2e/early-answers.test.ts.
 *
 * Hands the app the body's stream (on `c.req.raw`) and returns what drains the rest once the
 * answer is decided; nothing for a request without a body.
 */
export function takeOverBody(c: Context): (() => Promise<void>) | undefined {
  const source = c.req.raw.body;
  if (source === null) return undefined;
  const declared = Number(c.req.header("content-length"));
  const reader = source.getReader();
  let read = 0;
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) {
          ended = true;
          controller.close();
          return;
        }
        read += chunk.value.byteLength;
        controller.enqueue(chunk.value);
      },
      // The app gave up on the body: the rest is drained below, not cancelled.
      cancel() {},
    },
    { highWaterMark: 0 },
  );
  c.req.raw = new Request(c.req.raw, { body });
  return async () => {
    if (!ended) await drain(reader, declared > MAX_DRAINED_BODY_BYTES ? Number.POSITIVE_INFINITY : read);
  };
}

/**
 * Reads the rest of a body and drops it, up to MAX_DRAINED_BODY_BYTES in all; a larger one (or one
 * whose Content-Length says it is larger) is cancelled.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let read = alreadyRead;
  try {
    while (read <= MAX_DRAINED_BODY_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing is left to read.
  }
}
