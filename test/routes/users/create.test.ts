import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createUser, email, ISO_MS, listAll, USER_ID } from "./fixtures";

describe("POST /v1/users", () => {
  it("registers a user → 201, Location, role student by default", async () => {
    const address = email("ada");
    const res = await call("/v1/users", { body: { name: "Ada Lovelace", email: address } });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      id: expect.stringMatching(USER_ID),
      name: "Ada Lovelace",
      email: address,
      role: "student",
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(res.headers.get("location")).toBe(`/v1/users/${res.json.id}`);
    const got = await call(res.headers.get("location") as `/v1/users/${string}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
  });

  it("takes each role", async () => {
    for (const role of ["student", "instructor", "admin"]) {
      const user = await createUser({ role });
      expect(user.role).toBe(role);
    }
  });

  it("trims name and e-mail", async () => {
    const address = email("trim");
    const user = await createUser({ name: "  Grace Hopper \n", email: `  ${address} ` });
    expect(user.name).toBe("Grace Hopper");
    expect(user.email).toBe(address);
  });

  it("keeps the e-mail's case as given", async () => {
    const address = `Mixed.Case-${crypto.randomUUID()}@Example.COM`;
    const user = await createUser({ email: address });
    expect(user.email).toBe(address);
  });

  it("an invalid e-mail → 400 naming email", async () => {
    for (const bad of [
      "not-an-email",
      "a@",
      "@example.com",
      "a b@example.com",
      "",
      "   ",
      `${"a".repeat(250)}@example.com`,
      42,
      null,
    ]) {
      const problem = expectProblem(await call("/v1/users", { body: { name: "X", email: bad } }), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        String(bad),
      ).toEqual(["email"]);
    }
  });

  it("missing name or e-mail → 400 naming each", async () => {
    const problem = expectProblem(await call("/v1/users", { body: {} }), 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(["email", "name"]);
  });

  it("blank or too-long name → 400", async () => {
    expectProblem(await call("/v1/users", { body: { name: "  ", email: email() } }), 400, "validation_failed");
    expectProblem(await call("/v1/users", { body: { name: "n".repeat(201), email: email() } }), 400, "validation_failed");
    const ok = await call("/v1/users", { body: { name: "n".repeat(200), email: email() } });
    expect(ok.status, ok.text).toBe(201);
  });

  it("an unknown role → 400", async () => {
    const problem = expectProblem(await call("/v1/users", { body: { name: "X", email: email(), role: "root" } }), 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(["role"]);
  });

  it("an unknown field → 400 naming it", async () => {
    const problem = expectProblem(await call("/v1/users", { body: { name: "X", email: email(), password: "x" } }), 400);
    expect(problem.errors).toContainEqual({ path: "password", message: expect.any(String) });
  });

  it("a duplicate e-mail, in any case → 409 email_taken", async () => {
    const address = email("dup");
    await createUser({ email: address });
    expectProblem(await call("/v1/users", { body: { name: "Again", email: address } }), 409, "email_taken");
    expectProblem(await call("/v1/users", { body: { name: "Upper", email: address.toUpperCase() } }), 409, "email_taken");
    expectProblem(await call("/v1/users", { body: { name: "Padded", email: ` ${address} ` } }), 409, "email_taken");
    expect(await listAll(`email=${encodeURIComponent(address)}`)).toHaveLength(1);
  });

  it("concurrent registrations of one e-mail: exactly one wins", async () => {
    const address = email("race");
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call("/v1/users", { body: { name: `R${i}`, email: i % 2 ? address.toUpperCase() : address } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectProblem(r, 409, "email_taken");
  });
});
