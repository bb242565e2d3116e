import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createUser, email, listAll, MISSING_USER } from "./fixtures";

describe("DELETE /v1/users/{id}", () => {
  it("→ 204, then GET → 404, gone from lists, e-mail free to reuse", async () => {
    const address = email("gone");
    const user = await createUser({ email: address, role: "instructor" });
    const res = await call(`/v1/users/${user.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expectProblem(await call(`/v1/users/${user.id}`), 404, "not_found");
    expect((await listAll()).map((u) => u.id)).not.toContain(user.id);
    expect((await listAll("role=instructor")).map((u) => u.id)).not.toContain(user.id);
    expect(await listAll(`email=${encodeURIComponent(address)}`)).toEqual([]);
    const reuse = await call("/v1/users", { body: { name: "New owner", email: address.toUpperCase() } });
    expect(reuse.status, reuse.text).toBe(201);
    expect(reuse.json.id).not.toBe(user.id);
  });

  it("a user without an e-mail is deleted like any other: its events keep neither name nor address", async () => {
    const user = await createUser({ name: "Pupil", email: null });
    expect((await call(`/v1/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/users/${user.id}`), 404, "not_found");
    const events = await call("/v1/events?limit=100");
    const about = events.json.events.filter((e) => e.data.object.id === user.id);
    expect(about.map((e) => e.type).sort()).toEqual(["user.created", "user.deleted"]);
    for (const event of about) expect(event.data.object).toMatchObject({ name: "", email: "" });
  });

  it("a deleted user cannot be changed or deleted again → 404", async () => {
    const user = await createUser();
    expect((await call(`/v1/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expectProblem(await call(`/v1/users/${user.id}`, { method: "PATCH", body: { name: "Back" } }), 404, "not_found");
    expectProblem(await call(`/v1/users/${user.id}`, { method: "DELETE" }), 404, "not_found");
  });

  it("unknown id → 404", async () => {
    expectProblem(await call(MISSING_USER, { method: "DELETE" }), 404, "not_found");
  });
});
