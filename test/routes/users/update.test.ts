import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createUser, email, MISSING_USER } from "./fixtures";

describe("PATCH /v1/users/{id}", () => {
  it("changes name, e-mail and role; keeps what is not sent; bumps updated_at", async () => {
    const user = await createUser();
    await new Promise((r) => setTimeout(r, 5));
    const address = email("new");
    const res = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { name: " Renamed ", email: address } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      id: user.id,
      name: "Renamed",
      email: address,
      role: "student",
      created_at: user.created_at,
    });
    expect(res.json.updated_at > user.updated_at).toBe(true);
    const role = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { role: "admin" } });
    expect(role.json).toMatchObject({ name: "Renamed", email: address, role: "admin" });
    expect((await call(`/v1/users/${user.id}`)).json).toEqual(role.json);
  });

  it("the old e-mail is free once changed", async () => {
    const old = email("old");
    const user = await createUser({ email: old });
    await call(`/v1/users/${user.id}`, { method: "PATCH", body: { email: email("changed") } });
    const reuse = await call("/v1/users", { body: { name: "Reuser", email: old } });
    expect(reuse.status, reuse.text).toBe(201);
  });

  it("changing the case of one's own e-mail is allowed", async () => {
    const address = email("own");
    const user = await createUser({ email: address });
    const res = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { email: address.toUpperCase() } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.email).toBe(address.toUpperCase());
  });

  it("email: null removes the address, which is free for another user; an address can be given again", async () => {
    const address = email("removed");
    const user = await createUser({ email: address });
    const removed = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { email: null } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ id: user.id, name: user.name, email: null });
    expect((await call(`/v1/users/${user.id}`)).json).toEqual(removed.json);
    const events = await call("/v1/events?type=user.updated&limit=100");
    const event = events.json.events.find((e) => e.data.object.id === user.id);
    expect(event).toMatchObject({ data: { object: { email: null } }, previous_attributes: { email: address } });
    const other = await call("/v1/users", { body: { name: "Taker", email: address } });
    expect(other.status, other.text).toBe(201);
    const again = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { email: email("again") } });
    expect(again.status, again.text).toBe(200);
  });

  it("a user without an e-mail keeps none when other fields change", async () => {
    const user = await createUser({ email: null });
    const res = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { name: "Renamed" } });
    expect(res.json).toMatchObject({ name: "Renamed", email: null });
  });

  it("another user's e-mail, in any case → 409 email_taken, nothing changes", async () => {
    const taken = email("taken");
    await createUser({ email: taken });
    const user = await createUser({ name: "Second" });
    const res = await call(`/v1/users/${user.id}`, { method: "PATCH", body: { name: "Changed", email: taken.toUpperCase() } });
    expectProblem(res, 409, "email_taken");
    expect((await call(`/v1/users/${user.id}`)).json).toEqual(user);
  });

  it("invalid fields → 400 naming them, nothing changes", async () => {
    const user = await createUser();
    const cases: [unknown, string][] = [
      [{ email: "nope" }, "email"],
      [{ name: "" }, "name"],
      [{ name: null }, "name"],
      [{ role: "superuser" }, "role"],
      [{ id: "user_01kamz3f7c9n0p8s6e5vwx2y4r" }, "id"],
      [{ created_at: "2020-01-01T00:00:00.000Z" }, "created_at"],
    ];
    for (const [body, path] of cases) {
      const problem = expectProblem(await call(`/v1/users/${user.id}`, { method: "PATCH", body }), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await call(`/v1/users/${user.id}`)).json).toEqual(user);
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_USER, { method: "PATCH", body: { name: "x" } }), 404, "not_found");
  });
});
