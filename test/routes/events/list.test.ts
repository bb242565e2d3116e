import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { newUser } from "../../support/webhook-helpers";

describe("GET /v1/events", () => {
  it("lists newest first, filters by type, pages with a cursor", async () => {
    for (let i = 0; i < 3; i++) await newUser(`Lister ${i}`);
    const page = await call("/v1/events?type=user.created&limit=2");
    expect(page.status).toBe(200);
    const [a, b] = page.json.events as { id: string; created_at: string; type: string }[];
    expect(a!.id > b!.id).toBe(true);
    expect(a!.created_at >= b!.created_at).toBe(true);
    expect(page.json.events.every((e: { type: string }) => e.type === "user.created")).toBe(true);
    const next = await call(`/v1/events?type=user.created&limit=2&cursor=${page.json.next_cursor}`);
    expect(next.json.events[0]!.id < b!.id).toBe(true);
    expectProblem(await call("/v1/events?type=nope"), 400, "validation_failed");
    expectProblem(await call("/v1/events/evt_01kamz3f7c9n0p8s6e5vwx2y4r"), 404);
  });

  it("an event is readable as soon as its change is answered", async () => {
    const user = await newUser();
    const list = await call("/v1/events?type=user.created&limit=1");
    expect(list.json.events[0]!.data.object.id).toBe(user.json.id);
  });
});
