import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readQuestionBank } from "../../src/interchange";
import { bytes } from "./fixtures";
import { gradesLikeTheSource, item, question, share } from "./helpers";

/**
 * Items written by others (fixtures/outside, SOURCES.md names each file's repository, commit and
 * licence), read unchanged: what the importer makes of real QTI 2.1 items with MathML and images
 * (CONTRACT §19 "Import keeps them").
 */

const OUTSIDE = join(import.meta.dirname, "fixtures/outside/qtiworks");
const file = (path: string) => new Uint8Array(readFileSync(join(OUTSIDE, path)));

const MAA01A = "mathassess/MAA01a.xml";
const MAD06 = "mathassess/MAD06-Diff.xml";
const WEB4 = "testimplementation/WebDeveloperTest1/question4.xml";
const WEB4_IMAGE = "testimplementation/WebDeveloperTest1/directory.jpg";
const HOTSPOTS = "stomp/hotspotsS.xml";
const HOTSPOTS_IMAGE = "stomp/images/ukair.png";

const alone = (path: string) => {
  const result = readQuestionBank(file(path), { mediaType: "application/xml" });
  expect(result.format).toBe("qti");
  expect(result.items).toHaveLength(1);
  return result.items[0]!;
};

const ASSET = /\/v1\/assets\/(ast_[0-9a-z]{32})/g;
const assetsIn = (text: string) => [...text.matchAll(ASSET)].map((m) => m[1]);

describe("MathAssess's MAA01a (Mathqurate, adaptive, MathML in the stem, the options and the solution)", () => {
  const i = alone(MAA01A);
  const q = question(i, "single_choice");

  it("is approximated only for its partial credit; html, every formula kept", () => {
    expect(i.entry).toEqual({
      source_id: "MAA01a",
      title: "Expand brackets in a(x+b)+cx and simplify - choice",
      status: "approximated",
      type: "single_choice",
      notes: [
        'Scores differ for some responses: "ChoiceB" earns 50% of the points in the source and 0% here.',
        "Presentation the allow-list does not keep was removed (no text lost): <math id>.",
      ],
    });
    expect(q.content_format).toBe("html");
    // The stem's display formula, its LaTeX annotation kept; the hint, solution and their buttons are not the stem.
    expect(q.prompt).toBe(
      '<p>Expand the brackets in<math display="block"> <semantics> <mrow> <mn>2</mn> <mo>(</mo> <mi>x</mi> <mo>-</mo> <mn>5</mn> <mo>)</mo> <mo>+</mo> <mn>4</mn> <mi>x</mi> </mrow> <annotation encoding="LaTeX">\\[ 2(x-5)+4x\\]</annotation> </semantics> </math> and simplify the result. </p>',
    );
    expect(q.prompt).not.toMatch(/hint|solution/i);
  });

  it("each option is its formula; feedbackInline is its feedback, MathML inside it kept", () => {
    expect(q.options.map((o) => o.id)).toEqual(["ChoiceA", "ChoiceB", "ChoiceC", "ChoiceD", "ChoiceE"]);
    expect(q.options[0]).toEqual({
      id: "ChoiceA",
      text: '<math display="block"> <semantics> <mrow> <mn>6</mn> <mi>x</mi> <mo>-</mo> <mn>10</mn> </mrow> <annotation encoding="LaTeX">\\[6x-10\\]</annotation> </semantics> </math>',
      feedback: "Well done - you got the correct answer.",
    });
    for (const o of q.options) expect(o.text).toMatch(/^<math display="block"> <semantics> <mrow>.*<\/math>$/);
    expect(q.options[3]?.feedback).toBe(
      "Remember to include both of the terms in <math> <mi>x</mi> </math>. However, you got one term in the answer correct.",
    );
  });

  it("the worked solution (feedbackBlock SOLUTION, a MathML table with mfenced) is the explanation, brackets kept", () => {
    expect(q.explanation).toMatch(/^<math display="block"> <semantics> <mtable> <mtr>/);
    expect(q.explanation).toContain(
      "<mn>2</mn> <mrow><mo>(</mo><mrow> <mi>x</mi> <mo>-</mo> <mn>5</mn> </mrow><mo>)</mo></mrow>",
    );
    expect(q.explanation).toContain('<annotation encoding="SnuggleTeX">');
    expect(q.explanation).not.toMatch(/viewed|endattempt/i);
  });

  it("grades as the source for its right and wrong answers: 2 points for 6x − 10", () => {
    expect(q.points).toBe(2);
    expect(q.correct_option_id).toBe("ChoiceA");
    gradesLikeTheSource(q, "ChoiceA", "ChoiceE");
    // The source gives ChoiceB 1 of 2 points: a single choice here has no partial credit (the note above).
    expect(share(q, "ChoiceB")).toBe(0);
  });
});

describe("items with interactions the service does not have", () => {
  it("MathAssess's MAD06-Diff (customInteraction for Maxima, MathML) is skipped with the reason", () => {
    expect(alone(MAD06).entry).toEqual({
      source_id: "MAD06-Diff",
      title: "Differentiate ax^b",
      status: "skipped",
      notes: ["Skipped: an unsupported interaction (customInteraction)."],
    });
  });

  it("SToMP's hotspotsS (hotspotInteraction on a map) is skipped with the reason", () => {
    expect(alone(HOTSPOTS).entry).toEqual({
      source_id: "Demo_2_1",
      title: "Hotspots - UK Airports",
      status: "skipped",
      notes: ["Skipped: an unsupported interaction (hotspotInteraction)."],
    });
  });
});

describe("QTIWorks's Web Developer Test, question 4 (an img beside the item, HTML in the stem and the prompt)", () => {
  it("read alone, the image is not in the file: approximated, the image named, the HTML kept", () => {
    const i = alone(WEB4);
    expect(i.entry).toEqual({
      source_id: "choice",
      title: "Getting Started 4",
      status: "approximated",
      type: "single_choice",
      notes: ['An image was dropped: "directory.jpg" is not in the file.'],
    });
    const q = question(i, "single_choice");
    expect(q.content_format).toBe("html");
    expect(q.prompt).toBe(
      "<p><b>Question 4</b></p> <p>Look at the website directory below:</p> <p></p> <div>How would you display myimage.jpg in your webpage if it was stored in the 'images' subdirectory?<br><br></div>",
    );
    // Options that are HTML source shown as text stay text: escaped, not markup.
    expect(q.options.map((o) => o.text)).toEqual([
      '&lt;img src = "myimage.jpg" /&gt;',
      '&lt;img src = "images" /&gt;',
      '&lt;img src = "myimage.jpg/images" /&gt;',
      '&lt;img src = "images/myimage.jpg" /&gt;',
    ]);
    gradesLikeTheSource(q, "ChoiceD", "ChoiceA");
  });
});

describe("the outside items in a package (a manifest of this project's around the unchanged items and images)", () => {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="OUTSIDE">
  <organizations/>
  <resources>
    <resource identifier="R-web4" type="imsqti_item_xmlv2p1" href="${WEB4}"><file href="${WEB4}"/><file href="${WEB4_IMAGE}"/></resource>
    <resource identifier="R-maa01a" type="imsqti_item_xmlv2p1" href="${MAA01A}"><file href="${MAA01A}"/></resource>
    <resource identifier="R-mad06" type="imsqti_item_xmlv2p1" href="${MAD06}"><file href="${MAD06}"/></resource>
    <resource identifier="R-hotspots" type="imsqti_item_xmlv2p1" href="${HOTSPOTS}"><file href="${HOTSPOTS}"/><file href="${HOTSPOTS_IMAGE}"/></resource>
  </resources>
</manifest>`;
  const zip = zipSync({
    "imsmanifest.xml": bytes(manifest),
    ...Object.fromEntries([WEB4, WEB4_IMAGE, MAA01A, MAD06, HOTSPOTS, HOTSPOTS_IMAGE].map((p) => [p, file(p)])),
  });
  const result = readQuestionBank(zip, { mediaType: "application/zip" });

  it("reads each item with the status it has alone, but question 4 whose image is now there: imported", () => {
    expect(result.items.map((i) => [i.entry.source_id, i.entry.status])).toEqual([
      ["choice", "imported"],
      ["MAA01a", "approximated"],
      ["MAD06-Diff", "skipped"],
      ["Demo_2_1", "skipped"],
    ]);
    expect(item(result, "choice").entry.notes).toEqual([]);
  });

  it("question 4's image (a GIF named .jpg) is an asset of its own format and size; the skipped map is no asset", () => {
    const q = question(item(result, "choice"), "single_choice");
    const [id] = assetsIn(q.prompt);
    expect(q.prompt).toBe(
      `<p><b>Question 4</b></p> <p>Look at the website directory below:</p> <p><img src="/v1/assets/${id}" alt="File Directory"></p> <div>How would you display myimage.jpg in your webpage if it was stored in the 'images' subdirectory?<br><br></div>`,
    );
    expect(result.images?.map((i) => [i.id, i.mediaType, i.width, i.height])).toEqual([[id, "image/gif", 88, 84]]);
    expect(result.images?.[0]?.bytes).toEqual(file(WEB4_IMAGE));
  });
});
