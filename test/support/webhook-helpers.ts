import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { call } from "./call";

// Deliveries go through the real local queue to the real HTTP receiver of test/webhook-receiver.ts
// (WEBHOOK_RETRY_DELAYS_SECONDS is "1,1" in vitest.config.ts: three attempts, a second apart).

export const RECEIVER = env.WEBHOOK_RECEIVER_URL;
let names = 0;
/** A receiver path of the given behaviour (test/webhook-receiver.ts), unique to the test. */
export const hook = (kind: string) => `${RECEIVER}/hook/${kind}-${Date.now().toString(36)}${names++}`;

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export async function receivedAt(url: string): Promise<Received[]> {
  const name = new URL(url).pathname.split("/")[2];
  return (await fetch(`${RECEIVER}/received/${name}`)).json();
}

export async function waitForRequests(url: string, count: number, timeout = 20_000): Promise<Received[]> {
  return vi.waitFor(
    async () => {
      const list = await receivedAt(url);
      if (list.length < count) throw new Error(`${list.length} of ${count} requests so far`);
      return list;
    },
    { timeout, interval: 200 },
  );
}

/** vi.waitFor for queue work: deliveries take a second or more, retries several. */
export const eventually = <T>(check: () => Promise<T>, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 200 });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const newUser = (name = "Webhook Learner", auth?: string) =>
  call("/v1/users", { body: { name, email: `${crypto.randomUUID()}@example.com`, role: "student" }, auth });

export interface DeliveryRecord {
  id: string;
  event_id: string;
  endpoint_id: string;
  redelivery: number;
  attempt: number;
  status: string;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  next_retry_at: string | null;
  created_at: string;
}

/** An endpoint's delivery records as the API lists them (admin's view), by redelivery and attempt. */
export async function deliveries(endpointId: string): Promise<DeliveryRecord[]> {
  const res = await call(`/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  expect(res.status, res.text).toBe(200);
  return (res.json.deliveries as DeliveryRecord[]).sort((a, b) => a.redelivery - b.redelivery || a.attempt - b.attempt);
}
