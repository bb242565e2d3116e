import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { createUser, email, listAll } from "./fixtures";

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
    const second = await call(`${next.pathname}${next.search}` as `/v1/users?${string}`);
    expect(second.status).toBe(200);
    expect(second.json.users.every((u) => u.role === "instructor")).toBe(true);
    expect(second.json.users[0]!.id > first.json.users[1]!.id).toBe(true);
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
