import { describe, expect, it } from "vitest";
import { callRaw, expectProblem } from "../../support/call";
import { createKey, nonAdmin } from "./fixtures";

describe("non-admin credentials", () => {
  it("a key holding every other scope → 403 on every /v1/api-keys endpoint", async () => {
    const key = await nonAdmin();
    const { id } = await createKey();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/api-keys"],
      ["POST", "/v1/api-keys", { name: "x", scopes: ["admin"] }],
      ["GET", `/v1/api-keys/${id}`],
      ["POST", `/v1/api-keys/${id}/rotate`, {}],
      ["DELETE", `/v1/api-keys/${id}`],
      ["GET", `/v1/api-keys/${id}/usage`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await callRaw(path, { method, body, auth: key });
      expect(res.status, `${method} ${path}`).toBe(403);
      expectProblem(res, 403, "insufficient_scope");
    }
  });
});
