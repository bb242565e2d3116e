import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX } from "../../../src/domain/credential-format";
import { call, expectProblem } from "../../support/call";
import { createKey, expectNeedsAdmin, MISSING } from "./fixtures";

describe("GET /v1/api-keys/{id}", () => {
  it("→ 200, the metadata without the key", async () => {
    const { key, ...metadata } = await createKey({ scopes: ["analytics:read", "users:read"] });
    const res = await call(`/v1/api-keys/${metadata.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(metadata);
    expect(res.text).not.toContain(key);
    expect(res.text).not.toContain(key.slice(API_KEY_PREFIX.length));
  });

  it("unknown or malformed id → 404", async () => {
    expectProblem(await call(MISSING), 404, "not_found");
    expectProblem(await call("/v1/api-keys/nope"), 404, "not_found");
    expectProblem(await call("/v1/api-keys/cli_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin(`/v1/api-keys/${(await createKey()).id}`);
  });
});
