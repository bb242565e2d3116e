import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RECOGNITION } from "../../interchange/hostile-inputs";
import { expectProblem } from "../../support/call";
import { DOUBLINGS, expectRequestGrowthAtMost, GROWTH_TEST_TIMEOUT_MS } from "../../support/growth";
import { footprint, upload } from "./helpers";

/**
 * The request reads no more of a file than its first 64 KiB to tell the format (docs/import-export.md):
 * each hostile file of 16, 32, 64 and 128 KiB sent without `format` is answered 400 unknown_format,
 * with no job and no file kept, in a time that grows at most linearly with its size.
 */

const jobCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>())?.n ?? 0;

describe("POST /v1/imports without format, hostile files: 400 unknown_format at once, nothing stored", {
  timeout: GROWTH_TEST_TIMEOUT_MS,
}, () => {
  it.each(RECOGNITION.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const [before, jobs] = [await footprint(), await jobCount()];
    await expectRequestGrowthAtMost({
      sizes: DOUBLINGS,
      perStep: 2.5,
      make: (size) => {
        const data = c.file(size);
        return async () => expectProblem(await upload(data, c.mediaType), 400, c.expect);
      },
    });
    expect(await footprint()).toEqual(before);
    expect(await jobCount()).toBe(jobs);
  });
});
