import { describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { callRaw, expectProblem } from "../../support/call";
import { createClient, tokensFor } from "./fixtures";

describe("non-admin credentials", () => {
  it("an access token without admin → 403 on every /v1/oauth-clients endpoint", async () => {
    const issuer = await createClient({ scopes: SCOPES.filter((s) => s !== "admin") });
    const { access_token } = await tokensFor(issuer);
    const { id } = await createClient();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/oauth-clients"],
      ["POST", "/v1/oauth-clients", { name: "x", scopes: ["admin"] }],
      ["GET", `/v1/oauth-clients/${id}`],
      ["POST", `/v1/oauth-clients/${id}/rotate-secret`],
      ["DELETE", `/v1/oauth-clients/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await callRaw(path, { method, body, auth: access_token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expectProblem(res, 403, "insufficient_scope");
    }
  });
});
