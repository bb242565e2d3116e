import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateAssetId } from "../../../src/domain/asset-url";
import { call } from "../../support/call";
import { png } from "../../support/images";
import { imported, questionsOf } from "./helpers";

/**
 * An import's questions record the assets their texts name in the import's one batch, like every
 * other question write (docs/assets.md#references); an id that names no asset of this service
 * (the text came from elsewhere) is kept as written and recorded nowhere, and the import goes on.
 */
describe("POST /v1/imports: the questions' references to assets", () => {
  it("an existing asset is recorded and listed; an unknown one is kept as written, unrecorded", async () => {
    const upload = await call("/v1/assets", { method: "POST", raw: png(4, 4, 4242), headers: { "content-type": "image/png" } });
    expect(upload.status, upload.text).toBe(201);
    const asset = upload.json;
    const unknown = `/v1/assets/${generateAssetId()}`;
    const aiken = [
      `Which city is shown in ${asset.url}?`,
      "A. Paris",
      "B. Lyon",
      "ANSWER: A",
      "",
      `And in ${unknown}?`,
      "A. Rome",
      "B. Milan",
      "ANSWER: A",
      "",
    ].join("\n");
    const job = await imported(aiken, "text/plain", "format=aiken");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const quizId = job.result!.quiz_id!;
    const [first, second] = await questionsOf(quizId);
    expect(second!.prompt).toContain(unknown);
    const { results } = await env.DB.prepare("SELECT asset_id, question_id FROM asset_references ORDER BY question_id").all();
    expect(results).toEqual([{ asset_id: asset.id, question_id: first!.id }]);
    const listed = await call(`/v1/quizzes/${quizId}/assets`);
    expect(listed.json.assets.map((a) => a.id)).toEqual([asset.id]);
  });
});
