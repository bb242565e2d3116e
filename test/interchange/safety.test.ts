import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { InterchangeError, type InterchangeErrorCode, readQuestionBank } from "../../src/interchange";
import { BUDGET } from "../../src/interchange/budget";
import { MAX_ENTRIES, MAX_UNCOMPRESSED_BYTES } from "../../src/interchange/zip";
import { bytes, QTI } from "./fixtures";
import { BOMB_MANIFEST, deflatedZeros, rawZip } from "./zips";

/** The refusal's code, or "none" when the read went through. */
function refusal(read: () => unknown): InterchangeErrorCode | "none" {
  try {
    read();
    return "none";
  } catch (error) {
    if (error instanceof InterchangeError) return error.code;
    throw error;
  }
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<quiz><question type="essay"><name><text>&lol3;</text></name></question></quiz>`;
const XXE = `<?xml version="1.0"?><!DOCTYPE item [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<assessmentItem identifier="x" title="&xxe;"><itemBody/></assessmentItem>`;

const manifestZip = (extra: Record<string, Uint8Array>) =>
  zipSync({ "imsmanifest.xml": bytes(QTI.package.manifest), "tests/warm-up.xml": bytes(QTI.package.test), ...extra });

describe("unsafe XML is refused, never expanded", () => {
  it("an entity bomb (billion laughs) → unsafe_xml", () => {
    expect(refusal(() => readQuestionBank(bytes(BILLION_LAUGHS), { format: "moodle_xml" }))).toBe("unsafe_xml");
    expect(refusal(() => readQuestionBank(bytes(BILLION_LAUGHS), { mediaType: "application/xml" }))).toBe("unsafe_xml");
  });

  it("an external entity (XXE) → unsafe_xml, in a single item and inside a package", () => {
    expect(refusal(() => readQuestionBank(bytes(XXE), { format: "qti" }))).toBe("unsafe_xml");
    expect(refusal(() => readQuestionBank(manifestZip({ "items/order-v3.xml": bytes(XXE) })))).toBe("unsafe_xml");
  });

  it("the text <!DOCTYPE inside a CDATA section or a comment is content, not a declaration", () => {
    const xml = `<?xml version="1.0"?><!-- <!DOCTYPE x> --><quiz><question type="essay"><name><text>HTML</text></name>
      <questiontext format="html"><text><![CDATA[<p>What does <!DOCTYPE html> declare?</p>]]></text></questiontext></question></quiz>`;
    expect(readQuestionBank(bytes(xml), { format: "moodle_xml" }).items[0]?.question?.prompt).toBe("What does declare?");
  });
});

describe("the XML reader decides from its own tokens, and every failure is a refusal with a code", () => {
  /** The refusal's code and detail. */
  const refused = (xml: string) => {
    try {
      readQuestionBank(bytes(xml), { format: "moodle_xml" });
    } catch (error) {
      if (error instanceof InterchangeError) return { code: error.code, detail: error.detail };
      throw error;
    }
    return { code: "none", detail: "" };
  };
  const HIDDEN_DOCTYPE = `<quiz a="<!--"><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><b c="-->"/>&x;</quiz>`;
  const ESCAPED_HIDDEN_DOCTYPE = `<quiz a="&lt;!--"><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><b c="--&gt;"/>&x;</quiz>`;

  it("a DOCTYPE behind a “comment” that opens inside an attribute value is refused: the raw < is the file's first error", () => {
    // XML allows no "<" in an attribute value: the parser stops there, before any DOCTYPE.
    expect(refused(`<quiz a="<!--"><!DOCTYPE x><b c="-->"/></quiz>`)).toEqual({
      code: "unreadable_file",
      detail: "Malformed XML at line 1: disallowed character.",
    });
    expect(refused(HIDDEN_DOCTYPE).code).toBe("unreadable_file");
    // In a package, as any malformed item: that item is skipped with its reason, nothing of it read.
    const order = readQuestionBank(manifestZip({ "items/order-v3.xml": bytes(HIDDEN_DOCTYPE) })).items.find(
      (i) => i.entry.source_id === "order-v3",
    );
    expect(order?.entry).toMatchObject({ status: "skipped", notes: ["Skipped: Malformed XML at line 1: disallowed character."] });
  });

  it("a DOCTYPE inside the root element, after attribute values that hold “<!--” and “-->” → unsafe_xml", () => {
    expect(refused(`<quiz a="&lt;!--"><!DOCTYPE x><b c="--&gt;"/></quiz>`).code).toBe("unsafe_xml");
    expect(refused(ESCAPED_HIDDEN_DOCTYPE).code).toBe("unsafe_xml");
    expect(refused(`<quiz><![CDATA[<!--]]><!DOCTYPE x><b c="--&gt;"/></quiz>`).code).toBe("unsafe_xml");
    expect(refusal(() => readQuestionBank(manifestZip({ "items/order-v3.xml": bytes(ESCAPED_HIDDEN_DOCTYPE) })))).toBe(
      "unsafe_xml",
    );
  });

  it.each([
    ["a DOCTYPE before the root", `<!DOCTYPE quiz SYSTEM "quiz.dtd"><quiz/>`],
    ["a DOCTYPE after a comment", `<?xml version="1.0"?><!-- x --><!DOCTYPE quiz><quiz/>`],
    ["an entity declaration inside the root", `<quiz><!ENTITY x "y"></quiz>`],
    ["an entity declaration before the root", `<!ENTITY x "y"><quiz/>`],
    ["a DOCTYPE in lower case", `<quiz><!doctype quiz></quiz>`],
    ["an entity declaration after a line break", `<quiz>\r\n<!ENTITY\r\nx "y"></quiz>`],
  ])("%s → unsafe_xml", (_, xml) => {
    expect(refused(xml).code).toBe("unsafe_xml");
  });

  it("the text <!DOCTYPE in an attribute value, escaped as XML requires, is content", () => {
    const xml = `<quiz><question type="essay" note="&lt;!DOCTYPE x [&lt;!ENTITY y 'z'&gt;]&gt;"><name><text>Note</text></name>
      <questiontext format="html"><text>Read &lt;!DOCTYPE html&gt; as text</text></questiontext></question></quiz>`;
    const result = readQuestionBank(bytes(xml), { format: "moodle_xml" });
    expect(result.items.map((i) => i.entry.status)).toEqual(["imported"]);
  });

  it("elements nested deeper than 100 → unreadable_file naming the limit", () => {
    const deep = (n: number) => `<quiz>${"<a>".repeat(n)}${"</a>".repeat(n)}</quiz>`;
    expect(readQuestionBank(bytes(deep(99)), { format: "moodle_xml" }).items).toEqual([]);
    expect(() => readQuestionBank(bytes(deep(100)), { format: "moodle_xml" })).toThrowError(
      expect.objectContaining({
        code: "unreadable_file",
        detail: expect.stringContaining("nested deeper than 100"),
      }) as unknown as Error,
    );
  });

  it(`an element with more than ${BUDGET.xmlAttributesPerElement} attributes → unreadable_file naming the limit`, () => {
    const element = (n: number) => `<quiz ${Array.from({ length: n }, (_, i) => `a${i}="${i}"`).join(" ")}/>`;
    expect(refused(element(BUDGET.xmlAttributesPerElement)).code).toBe("none");
    expect(refused(element(BUDGET.xmlAttributesPerElement + 1))).toEqual({
      code: "unreadable_file",
      detail: `Malformed XML at line 1: an element with more than ${BUDGET.xmlAttributesPerElement} attributes.`,
    });
  });

  it("attributes named __proto__, constructor or prototype are attributes like any other, and the file reads", () => {
    const xml = `<quiz __proto__="x" constructor="y"><question type="essay" prototype="z" __proto__="w"><name><text>Proto</text></name>
      <questiontext format="html"><text>Why &amp;constructor; and &amp;__proto__;?</text></questiontext></question></quiz>`;
    const result = readQuestionBank(bytes(xml), { format: "moodle_xml" });
    expect(result.items.map((i) => [i.entry.source_id, i.entry.status])).toEqual([["Proto", "imported"]]);
    expect(result.items[0]?.question?.prompt).toBe("Why &constructor; and &__proto__;?");
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each(["&constructor;", "&__proto__;", "&toString;", "&nbsp;", "&lol;"])(
    "an entity no DTD defines (%s) → unreadable_file naming the reference, never a property of an object",
    (reference) => {
      const xml = `<quiz><question type="essay"><name><text>E</text></name>\n<questiontext><text>Why ${reference}?</text></questiontext></question></quiz>`;
      expect(refused(xml)).toEqual({
        code: "unreadable_file",
        detail:
          "Malformed XML at line 2: a reference to an undefined entity (only &lt; &gt; &amp; &quot; &apos; and character references are read).",
      });
      expect(refused(`<quiz a="${reference}"/>`).code).toBe("unreadable_file");
    },
  );

  it("character references are read, one that names no character is an error", () => {
    const xml = `<quiz><question type="essay"><name><text>&#x48;&#105;</text></name><questiontext><text>&#169; &#x1F600;</text></questiontext></question></quiz>`;
    const result = readQuestionBank(bytes(xml), { format: "moodle_xml" });
    expect(result.items.map((i) => [i.entry.source_id, i.question?.prompt])).toEqual([["Hi", "© 😀"]]);
    expect(refused("<quiz>&#0;</quiz>").code).toBe("unreadable_file");
    expect(refused("<quiz>&#x110000;</quiz>").code).toBe("unreadable_file");
  });

  it("a question type or element named like an object's own properties is just an unknown name", () => {
    const xml = `<quiz><question type="constructor"><name><text>C</text></name></question><question type="toString"><name><text>T</text></name></question></quiz>`;
    expect(readQuestionBank(bytes(xml), { format: "moodle_xml" }).items.map((i) => i.entry.notes)).toEqual([
      ['Skipped: the question type "constructor" is not supported.'],
      ['Skipped: the question type "toString" is not supported.'],
    ]);
  });

  it.each([
    ["an unclosed element", "<quiz><question>"],
    ["a second root", "<quiz/><quiz/>"],
    ["text after the root", "<quiz/>trailing"],
    ["a repeated attribute", '<quiz a="1" a="2"/>'],
    ["an attribute without a value", "<quiz a/>"],
    ["an unquoted value", "<quiz a=1/>"],
    ["an unclosed comment", "<quiz><!-- x</quiz>"],
    ["an unclosed CDATA section", "<quiz><![CDATA[x</quiz>"],
    ["another markup declaration", "<quiz><!ELEMENT x ANY></quiz>"],
    ["mismatched end tags", "<quiz><a></b></quiz>"],
    ["a raw < in an attribute value", '<quiz a="<b>"/>'],
    ["a control character", "<quiz>\u0001</quiz>"],
    ["an XML declaration after white space", ' <?xml version="1.0"?><quiz/>'],
    ["a DOCTYPE that never closes", "<!DOCTYPE quiz [<!ENTITY x 'y'>"],
    ["a CDATA section before the root", "<![CDATA[x]]><quiz/>"],
    ["nothing but a declaration", '<?xml version="1.0"?>'],
  ])("%s → unreadable_file", (_, xml) => {
    expect(refusal(() => readQuestionBank(bytes(xml), { format: "moodle_xml" }))).toBe("unreadable_file");
  });
});

describe("unsafe packages are refused", () => {
  const stored = (name: string, text = "<x/>") => {
    const data = bytes(text);
    // The checksum is not what these tests are about, and the reader does not need it to refuse.
    return { name, data, method: 0 as const, crc: 0, size: data.length };
  };

  it("zip slip: an entry path with .. or an absolute path → unsafe_package", () => {
    for (const name of ["../evil.xml", "items/../../evil.xml", "/etc/evil.xml", "C:\\evil.xml", "\\\\host\\evil.xml"])
      expect(
        refusal(() => readQuestionBank(rawZip([stored("imsmanifest.xml"), stored(name)]))),
        name,
      ).toBe("unsafe_package");
  });

  it(`more than ${MAX_ENTRIES} entries → unsafe_package`, () => {
    const many = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => stored(`items/${i}.xml`));
    expect(refusal(() => readQuestionBank(rawZip(many)))).toBe("unsafe_package");
  });

  it("a zip bomb that declares its 101 MiB → unsafe_package before inflating", () => {
    const data = deflatedZeros(101);
    expect(data.length).toBeLessThan(1024 * 1024);
    const bomb = { name: "items/bomb.xml", data, method: 8 as const, crc: 0, size: 101 * 1024 * 1024 };
    expect(refusal(() => readQuestionBank(rawZip([stored("imsmanifest.xml"), bomb])))).toBe("unsafe_package");
  });

  it("a zip bomb that lies (declares 1 KiB, inflates to 101 MiB) → unsafe_package, counted while inflating", () => {
    const bomb = { name: "items/bomb.xml", data: deflatedZeros(101), method: 8 as const, crc: 0, size: 1024 };
    const error = (() => {
      try {
        readQuestionBank(rawZip([stored("imsmanifest.xml", BOMB_MANIFEST), bomb]));
      } catch (e) {
        return e as InterchangeError;
      }
    })();
    expect(error?.code).toBe("unsafe_package");
    expect(error?.detail).toBe("The package inflates to more than 100 MiB.");
    expect(MAX_UNCOMPRESSED_BYTES).toBe(100 * 1024 * 1024);
  });

  it("a truncated zip → unreadable_file with a detail", () => {
    const whole = manifestZip({ "items/order-v3.xml": bytes(QTI.orderV3) });
    for (const cut of [whole.length - 10, Math.floor(whole.length / 2), 40]) {
      let error: InterchangeError | undefined;
      try {
        readQuestionBank(whole.subarray(0, cut), { format: "qti" });
      } catch (e) {
        error = e as InterchangeError;
      }
      expect(error?.code, `cut at ${cut}`).toBe("unreadable_file");
      expect(error?.detail).toMatch(/zip|truncated/);
    }
  });

  it("a zip without imsmanifest.xml → unreadable_file", () => {
    expect(refusal(() => readQuestionBank(zipSync({ "item.xml": bytes(QTI.orderV3) })))).toBe("unreadable_file");
  });
});

describe("a file that is not the format → unreadable_file", () => {
  it.each([
    ["GIFT text read as QTI", "::Q:: 1 + 1 = 2 {T}", "qti"],
    ["QTI read as Moodle XML", QTI.orderV3, "moodle_xml"],
    ["malformed XML", "<quiz><question></quiz>", "moodle_xml"],
    ["prose read as Aiken", "Dear colleagues,\nsee you soon.", "aiken"],
  ] as const)("%s", (_, text, format) => {
    expect(refusal(() => readQuestionBank(bytes(text), { format }))).toBe("unreadable_file");
  });

  it("bytes that are not UTF-8 text", () => {
    expect(
      refusal(() => readQuestionBank(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0xc3, 0x28]), { format: "gift" })),
    ).toBe("unreadable_file");
  });
});
