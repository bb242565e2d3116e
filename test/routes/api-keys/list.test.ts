import { describe, expect, it } from "vitest";
import { type AnswerOf, call, expectProblem, type Schema } from "../../support/call";
import { createKey, expectNeedsAdmin, KEY } from "./fixtures";

describe("GET /v1/api-keys", () => {
  it("lists keys without the keys themselves, paginated by cursor", async () => {
    const created = await Promise.all([createKey({ name: "page" }), createKey({ name: "page" }), createKey({ name: "page" })]);
    const seen: Schema<"ApiKey">[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: AnswerOf<"/v1/api-keys"> = await call(`/v1/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.api_keys.length).toBeLessThanOrEqual(2);
      if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
      else expect(res.headers.get("link")).toBeNull();
      seen.push(...res.json.api_keys);
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    expect(new Set(seen.map((k) => k.id)).size).toBe(seen.length);
    const ids = seen.map((k) => k.id);
    expect(ids).toEqual([...ids].sort());
    for (const k of created) expect(ids).toContain(k.id);
    for (const k of seen) {
      expect(k).not.toHaveProperty("key");
      expect(k).not.toHaveProperty("key_hash");
      expect(JSON.stringify(k)).not.toMatch(KEY);
    }
  });

  it("a bad cursor or limit → 400", async () => {
    for (const query of ["limit=0", "limit=101", "limit=x", "cursor=nope", "cursor="]) {
      expectProblem(await call(`/v1/api-keys?${query}`), 400, "validation_failed");
    }
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/api-keys");
  });
});
