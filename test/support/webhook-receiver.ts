// vitest globalSetup (runs in Node, not in workerd): a real HTTP receiver on 127.0.0.1 for the
// webhook tests. The worker under test POSTs to it over the loopback interface exactly as it
// would to a customer's server; the tests read what it received through GET /received/<name>.
//
// POST /hook/<name>: how it answers depends on the name's first part:
//   ok-…          200
//   fail-…        500 with a body
//   flaky<N>-…    500 for the first N requests, then 200
//   redirect-…    302 to /hook/ok-… (a redirect is not followed: a failure)
//   hang-…        never answers (the connection is closed after 30 s)
//   big-…         500 with a 1 MiB body (only 64 KiB of it is read, 1 KiB kept)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceiverUrl: string;
  }
}

const received = new Map<string, Received[]>();

function answer(name: string, count: number, res: ServerResponse): void {
  const flaky = /^flaky(\d+)-/.exec(name);
  if (name.startsWith("ok-") || (flaky && count > Number(flaky[1]))) {
    res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
  } else if (name.startsWith("redirect-")) {
    res.writeHead(302, { location: `/hook/ok-${name}` }).end();
  } else if (name.startsWith("hang-")) {
    setTimeout(() => res.destroy(), 30_000).unref();
  } else if (name.startsWith("big-")) {
    res.writeHead(500, { "content-type": "text/plain" }).end("x".repeat(1024 * 1024));
  } else {
    res.writeHead(500, { "content-type": "text/plain" }).end("receiver says no");
  }
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const [, kind, name = ""] = url.pathname.split("/");
    if (req.method === "GET" && kind === "received") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(name) ?? []));
      return;
    }
    if (req.method !== "POST" || kind !== "hook") {
      res.writeHead(404).end();
      return;
    }
    const list = received.get(name) ?? [];
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    list.push({ headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
    received.set(name, list);
    answer(name, list.length, res);
  });
}

export default async function setup(project: TestProject) {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("webhookReceiverUrl", `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
