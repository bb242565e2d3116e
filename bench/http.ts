// A small HTTP client for the bench's own setup and counting requests (not for load: that is
// autocannon's job, in another process). node:http rather than fetch, because the bench reaches
// its extra workers by Host header, which fetch does not let a caller set.
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export interface HttpRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** Sends of one request on kept-alive sockets that turn out closed, before giving up. */
const STALE_SOCKET_RETRIES = 5;

export async function request(base: string, req: HttpRequest): Promise<HttpResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(base, req);
    } catch (error) {
      // A kept-alive socket the server closed while this process was busy computing: the request
      // never reached the server (Node's documented case for a retry). Let the pending close
      // events run, so the agent drops such sockets, and send it again.
      if (!(error as { reusedSocket?: boolean }).reusedSocket || attempt >= STALE_SOCKET_RETRIES) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

function send(base: string, req: HttpRequest): Promise<HttpResponse> {
  const url = new URL(req.path, base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      url,
      {
        method: req.method,
        agent,
        headers: { ...req.headers, ...(req.body === undefined ? {} : { "content-length": Buffer.byteLength(req.body) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: any;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    r.on("error", (error: NodeJS.ErrnoException) => {
      const stale = r.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      reject(Object.assign(error, { reusedSocket: stale }));
    });
    r.end(req.body);
  });
}

/** The request, which must answer 2xx; its JSON body. */
export async function ok<T = any>(base: string, req: HttpRequest): Promise<T> {
  const res = await request(base, req);
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${req.method} ${req.path} → ${res.status}: ${res.text.slice(0, 500)}`);
  return res.json as T;
}

/** Runs `task` over `items` with at most `concurrency` in flight; results in input order. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T, i);
    }
  });
  await Promise.all(workers);
  return results;
}

export function closeAgent() {
  agent.destroy();
}
