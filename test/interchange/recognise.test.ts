import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fileSlug, IMPORT_MEDIA_TYPES, RECOGNISE_PREFIX_BYTES, recogniseFormat } from "../../src/interchange";
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

describe("recognition reads the file's first 64 KiB only", () => {
  const padded = (pad: number, text: string) => bytes(`${" ".repeat(pad)}${text}`);

  it("marks within the prefix are found, marks past it are not (name the format instead)", () => {
    expect(recogniseFormat(padded(RECOGNISE_PREFIX_BYTES - 100, "<quiz/>"), "application/xml")).toBe("moodle_xml");
    expect(() => recogniseFormat(padded(RECOGNISE_PREFIX_BYTES, "<quiz/>"), "application/xml")).toThrowError(
      expect.objectContaining({ code: "unknown_format" }) as unknown as Error,
    );
    expect(recogniseFormat(bytes(`${"\n".repeat(RECOGNISE_PREFIX_BYTES - 100)}::Q:: Yes? {T}`), "text/plain")).toBe("gift");
  });

  it("a character cut by the prefix's end, or bytes past it that are not text, do not change what the start says", () => {
    const text = bytes(`::Q:: Yes? {T}\n${"é".repeat(RECOGNISE_PREFIX_BYTES)}`);
    expect(recogniseFormat(text, "text/plain")).toBe("gift");
    const broken = new Uint8Array(RECOGNISE_PREFIX_BYTES + 10);
    broken.set(bytes("<quiz>"));
    broken.fill(0x20, 6, RECOGNISE_PREFIX_BYTES);
    broken.fill(0xff, RECOGNISE_PREFIX_BYTES);
    expect(recogniseFormat(broken, "application/xml")).toBe("moodle_xml");
  });

  it("Aiken options written without a space after their letter are Aiken, as in Moodle", () => {
    expect(recogniseFormat(bytes("Which?\nA)One\nB)Two\nANSWER: B"), "text/plain")).toBe("aiken");
  });

  it("a root past a DOCTYPE with an internal subset, comments and processing instructions", () => {
    const xml = `<?xml version="1.0"?>\n<!-- a --><?pi x?><!DOCTYPE quiz [ <!ENTITY a "b"> ] >\n<quiz/>`;
    expect(recogniseFormat(bytes(xml), "application/xml")).toBe("moodle_xml");
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
