import { exports } from "cloudflare:workers";

export const BASE = "http://quiz.test";

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON and other media types). */
  raw?: BodyInit;
  headers?: Record<string, string>;
}

/** Calls the worker through its real fetch handler, as a client over HTTP would. */
export async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await exports.default.fetch(
    new Request(`${BASE}${path}`, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body }),
  );
  const text = await response.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Asserts the shape of an RFC 9457 problem body and returns it. */
export function expectProblem(res: Awaited<ReturnType<typeof call>>, status: number, code?: string) {
  if (res.status !== status || res.headers.get("content-type") !== "application/problem+json") {
    throw new Error(`expected problem ${status}${code ? ` ${code}` : ""}, got ${res.status}: ${res.text}`);
  }
  if (code !== undefined && res.json.code !== code) throw new Error(`expected code ${code}, got ${res.text}`);
  for (const field of ["type", "title", "status", "detail", "code", "request_id"]) {
    if (!(field in res.json)) throw new Error(`problem body lacks ${field}: ${res.text}`);
  }
  return res.json as { type: string; title: string; status: number; detail: string; code: string; request_id: string; errors?: { path: string; message: string }[] };
}
