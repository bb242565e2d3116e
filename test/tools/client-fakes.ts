// A scripted fetch for the typed client's tests: it answers each request with the next step (a
// response, or a thrown error such as fetch's TypeError when no answer comes) and records what
// was sent, headers and body included, at the moment it was sent.

export type Step = Response | Error | ((request: Request) => Response | Promise<Response>);

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  at: number;
}

export function scriptedFetch(steps: Step[], clock: () => number = Date.now) {
  const sent: Sent[] = [];
  const queue = [...steps];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      url: request.url,
      headers: new Headers(request.headers),
      body: await request.text(),
      at: clock(),
    });
    const step = queue.shift();
    if (step === undefined) throw new Error(`unexpected request ${request.method} ${request.url}`);
    if (step instanceof Error) throw step;
    return typeof step === "function" ? step(request) : step;
  };
  return { fetch, sent };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

export const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: `/problems/${code}`, title: code, status, detail: code, code, request_id: "r" }), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });

/** What undici throws when the connection fails. */
export const networkError = () => new TypeError("fetch failed");

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
