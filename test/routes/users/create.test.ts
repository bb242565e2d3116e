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
      false,
      {},
    ]) {
      const problem = expectProblem(await call("/v1/users", { body: { name: "X", email: bad } }), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        String(bad),
      ).toEqual(["email"]);
    }
  });

  it("missing name → 400 naming it", async () => {
    const problem = expectProblem(await call("/v1/users", { body: {} }), 400, "validation_failed");
    expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
  });

  it("without an e-mail, omitted or null → 201 with email null, and its user.created event says so", async () => {
    for (const body of [{ name: "Pupil" }, { name: "Pupil", email: null }]) {
      const res = await call("/v1/users", { body });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({ name: "Pupil", email: null, role: "student" });
      expect((await call(`/v1/users/${res.json.id}`)).json).toEqual(res.json);
      const events = await call("/v1/events?type=user.created&limit=100");
      const event = events.json.events.find((e) => e.data.object.id === res.json.id);
      expect(event?.data.object).toEqual(res.json);
    }
  });

  it("any number of users without an e-mail; the addresses given stay unique", async () => {
    const pupils = await Promise.all(Array.from({ length: 5 }, (_, i) => call("/v1/users", { body: { name: `Pupil ${i}` } })));
    expect(pupils.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(pupils.map((r) => r.json.id)).size).toBe(5);
    const address = email("among-pupils");
    await createUser({ email: address });
    expectProblem(await call("/v1/users", { body: { name: "Again", email: address.toUpperCase() } }), 409, "email_taken");
    // The e-mail filter never finds a user without one.
    expect(await listAll(`email=${encodeURIComponent(address)}`)).toHaveLength(1);
    expect((await listAll("email=")).filter((u) => u.email === null)).toEqual([]);
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
