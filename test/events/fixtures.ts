import { afterEach, expect } from "vitest";
import { call } from "../support/call";

export const made: string[] = [];
export async function createEndpoint(url: string, events: string[] = ["user.created"]) {
  const res = await call("/v1/webhook-endpoints", { body: { url, events } });
  expect(res.status, res.text).toBe(201);
  made.push(res.json.id);
  return res.json as { id: string; secret: string; url: string; enabled: boolean };
}

/** Each test's endpoints go with it, so that later tests' events are not delivered to them too. */
export function deleteEndpointsAfterEach(): void {
  afterEach(async () => {
    for (const id of made.splice(0)) await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE" });
  });
}
