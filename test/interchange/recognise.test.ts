import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fileSlug, IMPORT_MEDIA_TYPES, recogniseFormat } from "../../src/interchange";
import { AIKEN, bytes, GIFT, MOODLE, QTI } from "./fixtures";

describe("recognising an upload's format", () => {
  it.each([
    ["an IMS package (zip)", zipSync({ "imsmanifest.xml": bytes(QTI.package.manifest) }), "application/zip", "qti"],
    ["a QTI 2.1 item", bytes(QTI.choiceV2p1), "application/xml", "qti"],
    ["a QTI 3.0 item", bytes(QTI.orderV3), "text/xml", "qti"],
    ["a QTI test", bytes(QTI.package.test), "application/xml", "qti"],
    ["Moodle XML", bytes(MOODLE.types), "application/xml", "moodle_xml"],
    [
      "Moodle XML with a DOCTYPE (refused later, by the reader)",
      bytes(`<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "b">]><quiz/>`),
      "application/xml",
      "moodle_xml",
    ],
    ["GIFT", bytes(GIFT.kinds), "text/plain", "gift"],
    ["Aiken", bytes(AIKEN.capitals), "text/plain", "aiken"],
    ["GIFT with a UTF-8 BOM", bytes(`\ufeff::Q:: Yes? {T}`), "text/plain", "gift"],
  ] as const)("%s", (_, data, mediaType, format) => {
    expect(recogniseFormat(data, mediaType)).toBe(format);
  });

  it.each([
    ["XML of another kind", bytes("<?xml version='1.0'?><html><body/></html>"), "application/xml"],
    ["prose", bytes("Minutes of the meeting.\n\nNothing to add."), "text/plain"],
    ["an image", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0xfd]), "text/plain"],
  ])("%s → unknown_format", (_, data, mediaType) => {
    expect(() => recogniseFormat(data, mediaType)).toThrowError(
      expect.objectContaining({ code: "unknown_format" }) as unknown as Error,
    );
  });
});

it("the upload media types are §13's", () => {
  expect(IMPORT_MEDIA_TYPES).toEqual(["application/zip", "application/xml", "text/xml", "text/plain"]);
});

describe("file slugs", () => {
  it.each([
    ["Biology 101: Cells & Energy", "biology-101-cells-energy"],
    ["Économie — théorie générale", "economie-theorie-generale"],
    ["日本語のクイズ", "quiz"],
    ["  --  ", "quiz"],
    ["x".repeat(100), "x".repeat(80)],
  ])("%s → %s", (title, slug) => {
    expect(fileSlug(title)).toBe(slug);
  });
});
