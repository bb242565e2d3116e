import { describe, expect, it } from "vitest";
import { MOODLE } from "../../interchange/fixtures";
import { expectProblem } from "../../support/call";
import { finished, upload } from "./helpers";

/**
 * POST /v1/imports under an Idempotency-Key (docs/api.md): the media type is part of the request,
 * since it says how the bytes are read; the same bytes under another type are another request.
 */

describe("POST /v1/imports with an Idempotency-Key", () => {
  it("the same bytes under another media type → 409 idempotency_key_reused, not the first job replayed", async () => {
    const headers = { "idempotency-key": `import-${crypto.randomUUID()}` };
    const first = await upload(MOODLE.types, "text/plain", "", { headers });
    expect(first.status, first.text).toBe(202);
    const asXml = await upload(MOODLE.types, "application/xml", "", { headers });
    expectProblem(asXml, 409, "idempotency_key_reused");
    expect(asXml.headers.get("idempotent-replayed")).toBeNull();
    await finished(first.json.id);
  });

  it("the media type is compared without its parameters or case: the same request replays the first job", async () => {
    const headers = { "idempotency-key": `import-${crypto.randomUUID()}` };
    const first = await upload(MOODLE.types, "application/xml", "", { headers });
    expect(first.status, first.text).toBe(202);
    const again = await upload(MOODLE.types, "Application/XML; charset=utf-8", "", { headers });
    expect(again.status, again.text).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(first.json.id);
    await finished(first.json.id);
  });
});
