import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readQuestionBank } from "../../src/interchange";
import { bytes, GIFT, MOODLE, QTI } from "./fixtures";
import { gradesLikeTheSource, item, question } from "./helpers";
import { BLUE_PNG, BMP, bigPng, RED_PNG } from "./images";

/** CONTRACT §19: imports keep formatted text, images and mathematics. */

const ASSET = /\/v1\/assets\/(ast_[0-9a-z]{32})/g;
const assetsIn = (text: string) => [...text.matchAll(ASSET)].map((m) => m[1]);

/** The rich fixture package with its image files: two real PNGs, a bitmap and a PNG over 5 MiB (images/missing.png left out). */
export function richPackage(extra: Record<string, Uint8Array> = {}) {
  const files: Record<string, Uint8Array> = Object.fromEntries(
    Object.entries(QTI.rich).map(([name, text]) => [name, bytes(text)]),
  );
  return zipSync({
    ...files,
    "images/flask.png": RED_PNG,
    "images/beaker.png": BLUE_PNG,
    "images/scan.bmp": BMP,
    "images/huge.png": bigPng(5 * 1024 * 1024 + 1),
    ...extra,
  });
}

describe("QTI: HTML, MathML and the package's images", () => {
  const result = readQuestionBank(richPackage(), { mediaType: "application/zip" });

  it("an item with emphasis, an image and MathML is imported in content_format html, nothing noted", () => {
    const flask = item(result, "flask");
    expect(flask.entry).toEqual({
      source_id: "flask",
      title: "Which flask",
      status: "imported",
      type: "single_choice",
      notes: [],
    });
    const q = question(flask, "single_choice");
    expect(q.content_format).toBe("html");
    expect(q.prompt).toMatch(
      /^<p>The flask below holds <strong>one litre<\/strong> of water:<\/p> <p><img src="\/v1\/assets\/ast_[0-9a-z]{32}" alt="A round-bottomed flask" width="2" height="2"><\/p> <div>What is its mass, <em>roughly<\/em>\?<\/div>$/,
    );
    // MathML in QTI's namespace (m:math) is MathML here, namespace prefix gone.
    expect(q.options[1]).toEqual({ id: "B", text: "<math><mn>1</mn><mo>\u2009</mo><mi>kg</mi></math>" });
    gradesLikeTheSource(q, "B", "A");
  });

  it("display MathML inside a paragraph is kept; the numeric entry's place is not text", () => {
    const q = question(item(result, "speed"), "numeric");
    expect(item(result, "speed").entry.status).toBe("imported");
    expect(q.prompt).toBe(
      '<p>A cyclist covers 100 m in 4 s. With <math display="block"><mrow><mi>v</mi><mo>=</mo><mfrac><mi>d</mi><mi>t</mi></mfrac></mrow></math> what is <em>v</em> in m/s?</p>',
    );
    expect(q.correct_value).toBe(25);
  });

  it("the same file shown by two items is one image; options that are only images keep them; a class is named, not a loss", () => {
    const flask = question(item(result, "flask"), "single_choice");
    const beaker = item(result, "beaker");
    expect(beaker.entry.status).toBe("imported");
    expect(beaker.entry.notes).toEqual(["Presentation the allow-list does not keep was removed (no text lost): <div class>."]);
    const q = question(beaker, "single_choice");
    const [first, second] = q.options.map((o) => assetsIn(o.text)[0]);
    expect(first).toBe(assetsIn(flask.prompt)[0]);
    expect(second).not.toBe(first);
    expect(result.images?.map((i) => [i.id, i.mediaType, i.width, i.height, i.bytes.length])).toEqual([
      [first, "image/png", 2, 2, RED_PNG.length],
      [second, "image/png", 3, 2, BLUE_PNG.length],
    ]);
    expect(result.images?.[0]?.bytes).toEqual(RED_PNG);
  });

  it("an image missing, of another format or over 5 MiB is dropped with a note naming why; the rest is kept", () => {
    const lost = item(result, "lost");
    expect(lost.entry).toMatchObject({ status: "approximated", type: "single_choice" });
    expect(lost.entry.notes).toEqual([
      'An image was dropped: "images/missing.png" is not in the file.',
      'An image was dropped: "images/scan.bmp" is not PNG, JPEG, GIF or WebP.',
      'An image was dropped: "images/huge.png" is over 5 MiB.',
    ]);
    expect(question(lost, "single_choice").prompt).toBe("<p>Is <b>mercury</b> a metal?</p> <p></p>");
  });

  it("one item uploaded alone has no files: its image is dropped, its HTML kept", () => {
    const one = readQuestionBank(bytes(QTI.rich["items/flask.xml"]), { mediaType: "application/xml" }).items[0];
    expect(one?.entry.notes).toEqual(['An image was dropped: "../images/flask.png" is not in the file.']);
    expect(one?.question?.prompt).not.toContain("<img");
    expect(one?.question?.prompt).toContain("<strong>one litre</strong>");
  });

  it("what the allow-list removes is named and makes the item approximated; scripts and handlers never survive", () => {
    const xml = QTI.rich["items/flask.xml"].replace(
      "<p>The flask below",
      '<h2 onclick="alert(1)">Heading</h2><p><a href="javascript:alert(1)">link</a></p><p>The flask below',
    );
    const i = readQuestionBank(bytes(xml), { mediaType: "application/xml" }).items[0];
    expect(i?.entry.status).toBe("approximated");
    // An element removed is named once, its attributes with it; its text stays (a heading's, a link's).
    expect(i?.entry.notes).toContain("The allow-list of formatted text removed: <h2>, <a>.");
    expect(i?.question?.prompt).toMatch(/^Heading<p>link<\/p><p>The flask below/);
    expect(i?.question?.prompt).not.toMatch(/onclick|javascript/);
  });

  it("an item of plain paragraphs stays content_format text, as before", () => {
    const plain = readQuestionBank(bytes(QTI.choiceV2p1), { mediaType: "application/xml" }).items[0];
    expect(plain?.question?.content_format).toBeUndefined();
    expect(plain?.entry.status).toBe("imported");
  });
});

describe("Moodle XML: HTML text, @@PLUGINFILE@@ images from base64 <file>s, TeX", () => {
  const result = readQuestionBank(bytes(MOODLE.rich), { format: "moodle_xml" });

  it("reads each question: the ones with images and TeX imported, the one whose image is missing approximated", () => {
    expect(result.items.map((i) => [i.entry.source_id, i.entry.status, i.question?.content_format ?? "text"])).toEqual([
      ["Red square", "imported", "html"],
      ["Root", "imported", "html"],
      ["Sum of halves", "imported", "html"],
      ["Describe the picture", "approximated", "html"],
      ["Plain", "imported", "text"],
    ]);
  });

  it("@@PLUGINFILE@@/name (URL-encoded) is the text's own base64 <file>, split over lines; an answer's file is its own", () => {
    const red = item(result, "Red square");
    expect(red.entry.notes).toEqual(["Presentation the allow-list does not keep was removed (no text lost): <img class>."]);
    const q = question(red, "single_choice");
    const [prompt] = assetsIn(q.prompt);
    const [option] = assetsIn(q.options[1]?.text ?? "");
    expect(q.prompt).toBe(
      `<p dir="ltr">Which shape is <strong>shown</strong>?</p><p><img src="/v1/assets/${prompt}" alt="a red shape" width="2" height="2"></p>`,
    );
    expect(q.options.map((o) => o.text)).toEqual([
      "<p>A <b>square</b></p>",
      `<p>The shape in <img src="/v1/assets/${option}" alt="the blue picture"></p>`,
      "A circle",
    ]);
    expect(q.explanation).toBe("<p>All four sides are equal: <em>a square</em>.</p>");
    expect(result.images?.map((i) => [i.id, i.width, i.height])).toEqual([
      [prompt, 2, 2],
      [option, 3, 2],
    ]);
    expect(result.images?.[0]?.bytes).toEqual(RED_PNG);
  });

  it("TeX stays as written for the write to turn into MathML: \\( \\) inline, $$ $$ as \\[ \\]; answers stay plain", () => {
    const root = question(item(result, "Root"), "short_text");
    expect(root.prompt).toBe("<p>Solve \\(x^2 = 4\\) for \\(x &gt; 0\\).</p>");
    expect(root.accepted_answers).toEqual(["2"]);
    const halves = question(item(result, "Sum of halves"), "numeric");
    expect(halves.prompt).toBe("What is \\[\\frac{1}{2} + \\frac{1}{4}\\] as a decimal?");
    expect(halves).toMatchObject({ correct_value: 0.75, tolerance: 0.001, points: 2 });
  });

  it("a file the text names but does not hold: the image is dropped and named", () => {
    const essay = item(result, "Describe the picture");
    expect(essay.entry.notes).toEqual(['An image was dropped: "missing.png" is not in the file.']);
    expect(essay.question?.prompt).toBe("<p>Describe  in a few words.</p>");
  });

  it("base64 over 5 MiB is refused from its length, before it is decoded", () => {
    const huge = "A".repeat(7 * 1024 * 1024 + 8);
    const xml = MOODLE.rich.replace(/(<file name="blue\.png"[^>]*>)[^<]*/, `$1${huge}`);
    const q = readQuestionBank(bytes(xml), { format: "moodle_xml" });
    expect(item(q, "Red square").entry.notes).toContain('An image was dropped: "blue.png" is over 5 MiB.');
    expect(q.images).toHaveLength(1);
  });
});

describe("GIFT: [html] kept, [markdown] kept as text", () => {
  it("[html] with an absolute URL of one of the service's assets keeps it, as its path; another host's image is removed and named", () => {
    const id = "ast_0123456789abcdefghjkmnpqrstvwxyz";
    const gift = `::Pic:: [html]<p>Look: <img src\\="https://quiz.example/v1/assets/${id}" alt\\="pic"> <img src\\="https://elsewhere.example/x.png"></p> {=yes ~no}\n`;
    const r = readQuestionBank(bytes(gift), { format: "gift", origin: "https://quiz.example" });
    const i = item(r, "Pic");
    expect(i.question?.prompt).toBe(`<p>Look: <img src="/v1/assets/${id}" alt="pic"> </p>`);
    expect(i.entry.notes).toEqual(["The allow-list of formatted text removed: <img>."]);
  });

  it("[markdown] stays its text, noted (no Markdown is rendered: docs/import-export.md says why)", () => {
    const r = readQuestionBank(bytes(GIFT.kinds), { format: "gift" });
    expect(item(r, "Markdown").question?.prompt).toBe("Which is **strong**?");
    expect(item(r, "Markdown").entry.notes).toEqual(["Markdown is kept as plain text."]);
  });
});
