import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bytes, QTI } from "../../interchange/fixtures";
import { BOMB_MANIFEST, deflatedZeros, rawZip } from "../../interchange/zips";
import { type Answer, call, expectProblem } from "../../support/call";
import { finished, fixturePackage, footprint, upload } from "./helpers";

/**
 * Hostile uploads each get their documented answer — an immediate 4xx, or a job that fails with
 * the refusal's code — write nothing (no quiz, question, version or event; the file deleted from
 * R2) and leave the service answering other requests promptly.
 */

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<quiz><question type="essay"><name><text>&lol3;</text></name></question></quiz>`;
const XXE = `<?xml version="1.0"?><!DOCTYPE item [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<assessmentItem identifier="x" title="&xxe;"><itemBody/></assessmentItem>`;

const stored = (name: string, text = "<x/>") => {
  const data = bytes(text);
  return { name, data, method: 0 as const, crc: 0, size: data.length };
};
const withManifest = (extra: Record<string, Uint8Array>) =>
  zipSync({ "imsmanifest.xml": bytes(QTI.package.manifest), "tests/warm-up.xml": bytes(QTI.package.test), ...extra });

const jobCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>())?.n ?? 0;

/** The service still answers a read at once. */
async function stillAnswering() {
  const started = Date.now();
  const res = await call("/v1/quizzes?limit=1");
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2000);
}

const JOB_FAILURES: [string, () => Uint8Array, string, string, string][] = [
  ["an entity bomb (billion laughs)", () => bytes(BILLION_LAUGHS), "application/xml", "", "unsafe_xml"],
  ["an external entity (XXE) in one item", () => bytes(XXE), "text/xml", "format=qti", "unsafe_xml"],
  [
    "an external entity inside a package",
    () => withManifest({ "items/order-v3.xml": bytes(XXE) }),
    "application/zip",
    "",
    "unsafe_xml",
  ],
  ["zip slip (../)", () => rawZip([stored("imsmanifest.xml"), stored("../evil.xml")]), "application/zip", "", "unsafe_package"],
  [
    "zip slip (absolute path)",
    () => rawZip([stored("imsmanifest.xml"), stored("/etc/evil.xml")]),
    "application/zip",
    "",
    "unsafe_package",
  ],
  [
    "over 1 000 entries",
    () => rawZip(Array.from({ length: 1001 }, (_, i) => stored(`items/${i}.xml`))),
    "application/zip",
    "",
    "unsafe_package",
  ],
  [
    "a zip bomb that declares its 101 MiB",
    () =>
      rawZip([
        stored("imsmanifest.xml"),
        { name: "items/bomb.xml", data: deflatedZeros(101), method: 8, crc: 0, size: 101 << 20 },
      ]),
    "application/zip",
    "",
    "unsafe_package",
  ],
  [
    "a zip bomb that lies about its size",
    () =>
      rawZip([
        stored("imsmanifest.xml", BOMB_MANIFEST),
        { name: "items/bomb.xml", data: deflatedZeros(101), method: 8, crc: 0, size: 1024 },
      ]),
    "application/zip",
    "",
    "unsafe_package",
  ],
  ["a truncated zip", () => fixturePackage().subarray(0, 300), "application/zip", "", "unreadable_file"],
  ["a zip without a manifest", () => zipSync({ "item.xml": bytes(QTI.orderV3) }), "application/zip", "", "unreadable_file"],
  ["malformed XML", () => bytes("<quiz><question></quiz>"), "application/xml", "", "unreadable_file"],
  ["a QTI item named as Moodle XML", () => bytes(QTI.orderV3), "application/xml", "format=moodle_xml", "unreadable_file"],
  [
    "bytes that are not text, named GIFT",
    () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0xc3, 0x28]),
    "text/plain",
    "format=gift",
    "unreadable_file",
  ],
];

describe("POST /v1/imports with a hostile file: the job fails with its code, nothing written", () => {
  const cases = JOB_FAILURES.map(([name, file, type, query, code]) => [name, code, file, type, query] as const);
  it.each(cases)("%s → %s", async (_, code, file, type, query) => {
    const before = await footprint();
    const res = await upload(file(), type, query);
    expect(res.status, res.text).toBe(202);
    const job = await finished(res.json.id);
    expect(job).toMatchObject({ status: "failed", result: null, error: { code } });
    expect(typeof job.error!.detail).toBe("string");
    expect(job.finished_at).not.toBeNull();
    expect(await footprint()).toEqual(before);
    await stillAnswering();
  });
});

describe("POST /v1/imports refused at once: 4xx, no job, no file kept", () => {
  const ELEVEN_MIB = new Uint8Array(11 * 1024 * 1024).fill(0x41);

  async function refusedAtOnce(send: () => Promise<Answer<unknown, unknown>>, status: number, code: string) {
    const [before, jobs] = [await footprint(), await jobCount()];
    expectProblem(await send(), status, code);
    expect(await footprint()).toEqual(before);
    expect(await jobCount()).toBe(jobs);
    await stillAnswering();
  }

  it("11 MiB → 413, with Content-Length and streamed without it", async () => {
    await refusedAtOnce(() => upload(ELEVEN_MIB, "text/plain", "format=gift"), 413, "payload_too_large");
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 11; i++) controller.enqueue(ELEVEN_MIB.subarray(i << 20, (i + 1) << 20));
          controller.close();
        },
      });
    const streamed = () =>
      call("/v1/imports?format=gift", { method: "POST", raw: stream(), headers: { "content-type": "text/plain" } });
    await refusedAtOnce(streamed, 413, "payload_too_large");
  });

  it("10 MiB exactly is accepted as to its size", async () => {
    const res = await upload(new Uint8Array(10 * 1024 * 1024).fill(0x41), "text/plain", "format=gift");
    expect(res.status, res.text).toBe(202);
    expect((await finished(res.json.id)).error!.code).toBe("unreadable_file");
  });

  it.each([["application/json"], ["image/png"], ["application/octet-stream"], ["multipart/form-data; boundary=x"]])(
    "a body of %s → 415",
    async (type) => {
      await refusedAtOnce(() => upload(bytes(QTI.orderV3), type), 415, "unsupported_media_type");
    },
  );

  it("no Content-Type → 415", async () => {
    await refusedAtOnce(
      () => call("/v1/imports", { method: "POST", raw: new Blob([QTI.orderV3]).stream(), headers: {} }),
      415,
      "unsupported_media_type",
    );
  });

  it("a file no format recognises, without format → 400 unknown_format", async () => {
    await refusedAtOnce(() => upload("Dear colleagues,\nsee you soon.", "text/plain"), 400, "unknown_format");
    await refusedAtOnce(() => upload("<html><body/></html>", "application/xml"), 400, "unknown_format");
    await refusedAtOnce(() => upload(new Uint8Array([0xff, 0xfe, 0xfd, 0x00, 0xd8]), "text/plain"), 400, "unknown_format");
  });

  it("an empty body, a bad format, title with quiz_id, an unknown query parameter → 400; an unknown quiz → 404", async () => {
    await refusedAtOnce(() => upload(new Uint8Array(0), "text/plain", "format=gift"), 400, "validation_failed");
    await refusedAtOnce(() => upload(QTI.orderV3, "text/xml", "format=qti3"), 400, "validation_failed");
    const quiz = await call("/v1/quizzes", { body: { title: "Target" } });
    await refusedAtOnce(() => upload(QTI.orderV3, "text/xml", `quiz_id=${quiz.json.id}&title=x`), 400, "validation_failed");
    await refusedAtOnce(() => upload(QTI.orderV3, "text/xml", "dry_run=true"), 400, "validation_failed");
    await refusedAtOnce(() => upload(QTI.orderV3, "text/xml", "quiz_id=quiz_01kamz3f7c9n0p8s6e5vwx2y4r"), 404, "not_found");
  });
});
