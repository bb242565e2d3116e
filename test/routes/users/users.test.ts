import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../helpers";

const USER_ID = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_USER = "/v1/users/user_01kamz3f7c9n0p8s6e5vwx2y4r";

/** A fresh e-mail address: storage is shared by every test of this file. */
const email = (label = "user") => `${label}-${crypto.randomUUID()}@example.com`;

async function createUser(body: Record<string, unknown> = {}) {
  const res = await call("/v1/users", { body: { name: "Ada Lovelace", email: email(), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** Every user the list shows for `query`, following next_cursor to the end. */
async function listAll(query = ""): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set("limit", "100");
    if (cursor) params.set("cursor", cursor);
    const res = await call(`/v1/users?${params}`);
    expect(res.status, res.text).toBe(200);
    out.push(...res.json.users);
    cursor = res.json.next_cursor;
  } while (cursor);
  return out;
}

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
    const got = await call(res.headers.get("location")!);
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

describe("GET /v1/users", () => {
  it("lists users, oldest first", async () => {
    const a = await createUser();
    const b = await createUser();
    const ids = (await listAll()).map((u) => u.id);
    expect(ids.indexOf(a.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(b.id)).toBeGreaterThan(ids.indexOf(a.id));
    expect([...ids].sort()).toEqual(ids);
  });

  it("?role= keeps only that role", async () => {
    const instructor = await createUser({ role: "instructor" });
    const student = await createUser();
    const instructors = await listAll("role=instructor");
    expect(instructors.length).toBeGreaterThan(0);
    expect(instructors.every((u) => u.role === "instructor")).toBe(true);
    expect(instructors.map((u) => u.id)).toContain(instructor.id);
    expect(instructors.map((u) => u.id)).not.toContain(student.id);
  });

  it("?email= matches exactly, case-insensitively", async () => {
    const address = `Find.Me-${crypto.randomUUID()}@Example.com`;
    const user = await createUser({ email: address });
    await createUser({ email: `x${address}` });
    for (const query of [address, address.toLowerCase(), address.toUpperCase()]) {
      const found = await listAll(`email=${encodeURIComponent(query)}`);
      expect(found, query).toEqual([user]);
    }
    expect(await listAll(`email=${encodeURIComponent(`nobody-${crypto.randomUUID()}@example.com`)}`)).toEqual([]);
  });

  it("?role= and ?email= combine", async () => {
    const address = email("both");
    const user = await createUser({ email: address, role: "admin" });
    expect(await listAll(`role=admin&email=${encodeURIComponent(address)}`)).toEqual([user]);
    expect(await listAll(`role=student&email=${encodeURIComponent(address)}`)).toEqual([]);
  });

  it("paginates with limit, next_cursor and Link", async () => {
    await Promise.all(Array.from({ length: 5 }, () => createUser({ role: "instructor" })));
    const first = await call("/v1/users?role=instructor&limit=2");
    expect(first.status).toBe(200);
    expect(first.json.users).toHaveLength(2);
    expect(typeof first.json.next_cursor).toBe("string");
    const link = first.headers.get("link")?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    expect(link).toBeTruthy();
    const next = new URL(link!, "http://quiz.test");
    expect(next.searchParams.get("role")).toBe("instructor");
    expect(next.searchParams.get("cursor")).toBe(first.json.next_cursor);
    const second = await call(`${next.pathname}${next.search}`);
    expect(second.status).toBe(200);
    expect(second.json.users.every((u: any) => u.role === "instructor")).toBe(true);
    expect(second.json.users[0].id > first.json.users[1].id).toBe(true);
  });

  it("a bad filter, limit, cursor or unknown parameter → 400", async () => {
    const cases: [string, string][] = [
      ["role=root", "query.role"],
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["limit=abc", "query.limit"],
      ["cursor=nonsense", "query.cursor"],
      ["name=Ada", "query.name"],
    ];
    for (const [query, path] of cases) {
      const problem = expectProblem(await call(`/v1/users?${query}`), 400, "validation_failed");
      expect(
        problem.errors?.map((e) => e.path),
        query,
      ).toContain(path);
    }
  });

  it("a quiz cursor is not a user cursor → 400", async () => {
    const cursor = btoa(JSON.stringify({ v: 1, after: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r" })).replace(/=+$/, "");
    expectProblem(await call(`/v1/users?cursor=${cursor}`), 400, "validation_failed");
  });

  it("wrong method → 405 with Allow: GET, POST", async () => {
    const res = await call("/v1/users", { method: "PATCH", body: {} });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST"]));
  });
});
