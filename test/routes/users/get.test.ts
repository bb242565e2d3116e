import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createUser, MISSING_USER } from "./fixtures";

describe("GET /v1/users/{id}", () => {
  it("→ 200", async () => {
    const user = await createUser({ role: "instructor" });
    const res = await call(`/v1/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(user);
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_USER), 404, "not_found");
  });

  it("malformed id or another kind's id → 404", async () => {
    expectProblem(await call("/v1/users/nope"), 404, "not_found");
    expectProblem(await call("/v1/users/quiz_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });

  it("wrong method → 405 with Allow", async () => {
    const user = await createUser();
    const res = await call(`/v1/users/${user.id}`, { method: "PUT", body: { name: "x" } });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]));
  });
});
