import { describe, expect, it } from "vitest";
import { type AnswerOf, call, expectProblem, type Schema } from "../../support/call";
import { createClient, expectNeedsAdmin } from "./fixtures";

describe("GET /v1/oauth-clients", () => {
  it("lists clients without their secrets, paginated by cursor", async () => {
    const created = await Promise.all([createClient(), createClient(), createClient()]);
    const seen: Schema<"OAuthClient">[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: AnswerOf<"/v1/oauth-clients"> = await call(`/v1/oauth-clients?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.oauth_clients.length).toBeLessThanOrEqual(2);
      if (res.json.next_cursor) expect(res.headers.get("link")).toContain('rel="next"');
      seen.push(...res.json.oauth_clients);
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const ids = seen.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
    for (const c of created) expect(ids).toContain(c.id);
    for (const c of seen) {
      expect(c).not.toHaveProperty("client_secret");
      expect(JSON.stringify(c)).not.toMatch(/qz_cs_/);
    }
  });

  it("a bad cursor or limit → 400", async () => {
    for (const query of ["limit=0", "limit=101", "cursor=nope"])
      expectProblem(await call(`/v1/oauth-clients?${query}`), 400, "validation_failed");
  });

  it("needs admin", async () => {
    await expectNeedsAdmin("/v1/oauth-clients");
  });
});
