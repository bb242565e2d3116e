import { describe, expect, it } from "vitest";
import { heavyItem, manyItems, READING, repeatedReferences } from "../../interchange/hostile-inputs";
import { finished, footprint, questionsOf, upload } from "./helpers";

/**
 * The job reads a hostile file within its budget (docs/security.md, "Parsing has a budget") and ends
 * on its first delivery: read, or failed with the documented code and nothing written — never
 * retried into internal_error.
 */

const LARGEST = 128 * 1024;

async function jobOf(file: Uint8Array, mediaType: string, query = "") {
  const res = await upload(file, mediaType, query);
  expect(res.status, res.text).toBe(202);
  return finished(res.json.id);
}

async function failsWith(file: Uint8Array, mediaType: string, query: string, code: string) {
  const before = await footprint();
  const job = await jobOf(file, mediaType, query);
  expect(job).toMatchObject({ status: "failed", result: null, error: { code } });
  expect(await footprint()).toEqual(before);
  return job;
}

describe("each hostile file of 128 KiB: read, or failed with its code", () => {
  it.each(READING.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const query = c.format ? `format=${c.format}` : "";
    if (c.expect !== "read") return void (await failsWith(c.file(LARGEST), c.mediaType, query, c.expect));
    const job = await jobOf(c.file(LARGEST), c.mediaType, query);
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
  });
});

describe("QTI packages whose test refers to one heavy item 10, 100 and 1 000 times", () => {
  it.each([10, 100, 1000])("%i references: one report line each, the quiz's 200 questions written", async (references) => {
    const job = await jobOf(repeatedReferences(references), "application/zip");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result).toMatchObject({ items_total: references, imported: Math.min(references, 200) });
    expect(await questionsOf(job.result!.quiz_id!)).toHaveLength(Math.min(references, 200));
  });

  it("1 001 references → too_many_items, before any item is read", async () => {
    const job = await failsWith(repeatedReferences(1001), "application/zip", "", "too_many_items");
    expect(job.error!.detail).toContain("1001 references");
  });

  it("a hundred distinct heavy items → too_complex", async () => {
    const job = await failsWith(
      manyItems(100, (i) => heavyItem(1000, `h${i}`)),
      "application/zip",
      "",
      "too_complex",
    );
    expect(job.error!.detail).toContain("steps of response processing");
  });
});

describe("what the XML reader refuses ends the job at once with its code", () => {
  const xml = (text: string) => new TextEncoder().encode(text);

  it("a DOCTYPE hidden behind a “comment” opened in an attribute value → unreadable_file at the raw <", async () => {
    const hidden = `<quiz a="<!--"><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><b c="-->"/>&x;</quiz>`;
    const job = await failsWith(xml(hidden), "application/xml", "", "unreadable_file");
    expect(job.error!.detail).toBe("Malformed XML at line 1: disallowed character.");
  });

  it("a DOCTYPE inside the root element → unsafe_xml", async () => {
    const inside = `<quiz a="&lt;!--"><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><b c="--&gt;"/>&x;</quiz>`;
    await failsWith(xml(inside), "application/xml", "", "unsafe_xml");
  });

  it("a reference to an entity no DTD defines → unreadable_file naming it", async () => {
    const file = `<quiz><question type="essay"><name><text>E</text></name><questiontext><text>&constructor;</text></questiontext></question></quiz>`;
    const job = await failsWith(xml(file), "application/xml", "", "unreadable_file");
    expect(job.error!.detail).toContain("undefined entity");
  });

  it("elements nested over 100 deep → unreadable_file", async () => {
    const job = await failsWith(
      xml(`<quiz>${"<a>".repeat(101)}${"</a>".repeat(101)}</quiz>`),
      "application/xml",
      "",
      "unreadable_file",
    );
    expect(job.error!.detail).toContain("nested deeper than 100");
  });

  it("attributes named __proto__, constructor and prototype: the file is read", async () => {
    const file = `<quiz __proto__="a" constructor="b"><question type="essay" prototype="c"><name><text>Proto</text></name><questiontext format="plain_text"><text>Why?</text></questiontext></question></quiz>`;
    const job = await jobOf(xml(file), "application/xml");
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(job.result).toMatchObject({ imported: 1 });
  });
});
