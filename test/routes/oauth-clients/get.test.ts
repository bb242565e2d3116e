import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createClient, expectNeedsAdmin, MISSING } from "./fixtures";

describe("GET /v1/oauth-clients/{id}", () => {
  it("→ 200, without the secret", async () => {
    const { client_secret, ...client } = await createClient();
    const res = await call(`/v1/oauth-clients/${client.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(client);
    expect(res.text).not.toContain(client_secret);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/nope"), 404, "not_found");
    expectProblem(await call("/v1/oauth-clients/key_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/oauth-clients/${(await createClient()).id}`);
  });
});
