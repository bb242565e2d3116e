import { describe, expect, it } from "vitest";
import { call, expectProblem, seedApiKey } from "../../support/call";
import { createKey, expectNeedsAdmin, expectRefused, ISO_MS, MISSING, verify } from "./fixtures";

describe("DELETE /v1/api-keys/{id}", () => {
  it("→ 204, and the key is refused at once (also when it was cached)", async () => {
    const created = await createKey();
    expect((await verify(created.key)).status).toBe(200);
    const res = await call(`/v1/api-keys/${created.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    await expectRefused(created.key);
    expectProblem(await verify(created.key, "x-api-key"), 401, "invalid_token");
    const metadata = (await call(`/v1/api-keys/${created.id}`)).json;
    expect(metadata.revoked_at).toMatch(ISO_MS);
  });

  it("a key that was never used is refused too", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    await expectRefused(created.key);
  });

  it("revoking twice → 204, and the first revocation time stays", async () => {
    const created = await createKey();
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const first = (await call(`/v1/api-keys/${created.id}`)).json.revoked_at;
    expect((await call(`/v1/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/v1/api-keys/${created.id}`)).json.revoked_at).toBe(first);
    await expectRefused(created.key);
  });

  it("a key can revoke itself, and is refused from then on", async () => {
    const self = await seedApiKey(["admin"]);
    expect((await call(`/v1/api-keys/${self.id}`, { method: "DELETE", auth: self.key })).status).toBe(204);
    await expectRefused(self.key);
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING, { method: "DELETE" }), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope", { method: "DELETE" }), 404, "not_found");
  });

  it("needs admin", async () => {
    const created = await createKey();
    await expectNeedsAdmin(`/v1/api-keys/${created.id}`, { method: "DELETE" });
    expect((await verify(created.key)).status).toBe(200);
  });
});
