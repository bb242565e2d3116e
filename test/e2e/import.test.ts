import { describe, expect, it } from "vitest";
import { useDevServer } from "./dev-server";

/**
 * An import through `npm run dev` as a newcomer runs it: the file stored in wrangler dev's local
 * R2, the job run by its local jobs queue, the quiz written; then its export.
 */
describe("an import and an export through wrangler dev", () => {
  const server = useDevServer();

  it("POST /v1/imports → 202, the job succeeds through the local queue, the quiz exports", async () => {
    const { url, key } = server();
    const headers = { "X-API-Key": key };
    const aiken = "Capital of France?\nA. Paris\nB. Lyon\nANSWER: A\n\nCapital of Italy?\nA) Milan\nB) Rome\nANSWER: B\n";
    const res = await fetch(`${url}/v1/imports?title=Capitals`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: aiken,
    });
    const started = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(started)).toBe(202);
    let job: { status: string; quiz_id: string; result: { imported: number } | null } | undefined;
    for (let i = 0; i < 300; i++) {
      job = (await (await fetch(`${url}/v1/jobs/${started.id}`, { headers })).json()) as typeof job;
      if (job?.status === "succeeded" || job?.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job).toMatchObject({ status: "succeeded", result: { imported: 2 } });
    const exported = await fetch(`${url}/v1/quizzes/${job?.quiz_id}/export?format=gift`, { headers });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="capitals.gift"');
    expect(await exported.text()).toContain("Capital of Italy?");
  });
});
