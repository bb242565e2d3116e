import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sanitizeHtml, type TexRenderer } from "../../src/domain/content/sanitize";
import { loadTex } from "../../src/domain/content/tex";
import { textContent } from "../../src/domain/content/text-content";
import { NestingTooDeep } from "../../src/domain/content/tree";
import { HOSTILE_HTML, TOO_DEEP_HTML } from "../support/hostile-html";
import { strictProblem } from "../support/strict-html";

/** CONTRACT §19's sanitizer (src/domain/content, docs/content.md), as a plain function. */

let tex: TexRenderer;
beforeAll(async () => {
  tex = await loadTex();
});
const clean = (html: string, origin?: string) => sanitizeHtml(html, { tex, origin });
const ASSET = "/v1/assets/ast_0123456789abcdefghjkmnpqrstvwxyz";

describe("hostile input", () => {
  it("has at least 60 entries", () => expect(HOSTILE_HTML.length).toBeGreaterThanOrEqual(60));

  it.each(HOSTILE_HTML)("%s: stored with nothing outside the allow-list, and stable", (_name, html) => {
    const { html: stored } = clean(html);
    expect(strictProblem(stored), stored).toBeNull();
    // The tags alone (attribute values and text emptied: a payload there is inert text).
    const markup = stored.replace(/"[^"]*"/g, '""').replace(/>[^<]*</g, "><");
    expect(markup).not.toMatch(
      /<(script|style|svg|iframe|object|embed|template|noscript|textarea|xmp|plaintext|annotation-xml|maction)\b/i,
    );
    expect(markup).not.toMatch(/\son[a-z]+=/i);
    expect(stored).not.toMatch(/href="(?!https?:|mailto:)/i);
    // Sanitizing what was stored changes nothing.
    expect(clean(stored).html).toBe(stored);
  });

  it.each(TOO_DEEP_HTML.map((html) => [html.slice(0, 20), html]))("%s…: nested past 64 levels is refused", (_name, html) => {
    expect(() => clean(html)).toThrow(NestingTooDeep);
  });

  it("the strict checker itself refuses what is outside the allow-list", () => {
    for (const bad of [
      "<script></script>",
      '<img src="x">',
      '<a href="javascript:x" rel="noopener noreferrer" target="_blank">x</a>',
      '<p onclick="x">y</p>',
      "<p>a & b</p>",
      "<b><i></b></i>",
      "<math><p>x</p></math>",
      "<p>",
    ])
      expect(strictProblem(bad), bad).not.toBeNull();
    expect(strictProblem('<p title="a &amp; b">x &lt; y</p><br>')).toBeNull();
  });
});

describe("what is kept", () => {
  it("keeps the allow-list's formatting and re-serializes it: attributes double-quoted, text escaped, every element closed", () => {
    expect(clean("<P Title='a \"b\" & c'>x < y <B>bold<I>both</B> after</p>").html).toBe(
      '<p title="a &quot;b&quot; &amp; c">x &lt; y <b>bold<i>both</i></b> after</p>',
    );
  });

  it("adds rel and target to http, https and mailto links, and drops other links but keeps their text", () => {
    const { html, removed } = clean(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_self" rel="opener">x</a> <a href="/relative">y</a>',
    );
    expect(html).toBe('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">x</a> y');
    expect(removed).toEqual(["a@target", "a@rel", "a@href", "a"]);
    expect(clean('<a href="mailto:someone@example.com">m</a>').html).toContain('href="mailto:someone@example.com"');
  });

  it("keeps an img only when its src is an asset of this service (its path, or its absolute URL on the service's origin)", () => {
    expect(clean(`<img src="${ASSET}" alt="A cat" width="40" height="x">`).html).toBe(
      `<img src="${ASSET}" alt="A cat" width="40">`,
    );
    expect(clean(`<img src="https://quiz.example${ASSET}">`, "https://quiz.example").html).toBe(`<img src="${ASSET}">`);
    expect(clean(`<img src="https://other.example${ASSET}">`, "https://quiz.example")).toEqual({
      html: "",
      removed: ["img@src", "img"],
    });
    expect(clean('<img src="https://example.com/cat.png" alt="cat">').html).toBe("");
  });

  it("keeps table structure, adding the tbody and tr a browser would, and removes text outside cells", () => {
    expect(clean('<table><caption>C</caption><tr><th scope="col" colspan="2">h<td rowspan=2>d</table>').html).toBe(
      '<table><caption>C</caption><tbody><tr><th scope="col" colspan="2">h</th><td rowspan="2">d</td></tr></tbody></table>',
    );
    expect(clean("<table>stray<td>x</td></table>")).toEqual({
      html: "<table><tbody><tr><td>x</td></tr></tbody></table>",
      removed: ["#text"],
    });
  });

  it("closes an open p before a block and an open li before the next, as a browser reads them", () => {
    expect(clean("<p>a<div>b</div><ul><li>1<li>2</ul>").html).toBe("<p>a</p><div>b</div><ul><li>1</li><li>2</li></ul>");
  });

  it("keeps MathML's presentation elements and attributes inside math only, and no HTML inside math", () => {
    expect(
      clean(
        '<math display="block" xmlns="http://www.w3.org/1998/Math/MathML"><mi mathvariant="bold" style="x">x</mi><b>y</b></math>',
      ).html,
    ).toBe('<math display="block"><mi mathvariant="bold">x</mi>y</math>');
    expect(clean("<mi>x</mi>").html).toBe("x");
  });

  it("decodes character references and escapes what needs it; unknown names stay as written", () => {
    expect(clean("&eacute;&#x41;&#66;&nbsp;&lt;b&gt; &bogus; &amp").html).toBe("éAB&nbsp;&lt;b&gt; &amp;bogus; &amp;amp");
    expect(clean("&constructor; &__proto__;").html).toBe("&amp;constructor; &amp;__proto__;");
  });

  it("names what it removed, each once", () => {
    expect(clean('<script>x</script><p onclick="a" onclick="b">t<!-- c --></p><script></script>').removed).toEqual([
      "script",
      "p@onclick",
      "#comment",
    ]);
  });
});

describe("TeX", () => {
  it("turns \\(…\\) and \\[…\\] into MathML with the TeX as an application/x-tex annotation", () => {
    const { html } = clean("Solve \\(x^2 = 4\\) then \\[\\frac{a}{b}\\].");
    expect(html).toBe(
      'Solve <math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>=</mo><mn>4</mn></mrow><annotation encoding="application/x-tex">x^2 = 4</annotation></semantics></math> then <math display="block"><semantics><mrow><mfrac><mi>a</mi><mi>b</mi></mfrac></mrow><annotation encoding="application/x-tex">\\frac{a}{b}</annotation></semantics></math>.',
    );
    expect(strictProblem(html)).toBeNull();
  });

  it("leaves TeX that does not parse, TeX in code or pre, and TeX holding a {{blank}} as written", () => {
    expect(clean("\\(\\frac{\\)").html).toBe("\\(\\frac{\\)");
    expect(clean("<code>\\(x\\)</code><pre>\\[y\\]</pre>").html).toBe("<code>\\(x\\)</code><pre>\\[y\\]</pre>");
    expect(clean("\\({{b}}\\)").html).toBe("\\({{b}}\\)");
  });

  it("without a renderer, TeX stays text", () => {
    expect(sanitizeHtml("\\(x\\)").html).toBe("\\(x\\)");
  });
});

describe("textContent", () => {
  it("gives the text of a stored fragment: blocks and br as lines, an image's alt, a formula's TeX", () => {
    const stored = clean(`<p>One <b>two</b></p><p>three<br>four <img src="${ASSET}" alt="a cat"> \\(x^2\\)</p>`).html;
    expect(textContent(stored)).toBe("One two\nthree\nfour [a cat] \\(x^2\\)");
    expect(textContent("a &lt;b&gt; &amp; c")).toBe("a <b> & c");
  });
});

describe("any input", () => {
  const tags = [
    "p",
    "b",
    "i",
    "a",
    "img",
    "table",
    "tr",
    "td",
    "li",
    "ul",
    "math",
    "mi",
    "mrow",
    "svg",
    "style",
    "script",
    "div",
    "pre",
    "x",
  ];
  const piece = fc.oneof(
    fc.constantFrom(...tags).map((t) => `<${t}>`),
    fc.constantFrom(...tags).map((t) => `</${t}>`),
    fc.constantFrom(
      '<a href="https://e.example">',
      `<img src="${ASSET}" alt='q"'>`,
      "<!--",
      "-->",
      "&amp;",
      "&#x3c;",
      '"',
      "'",
      "=",
      " onload=x",
    ),
    fc.string({ maxLength: 5 }),
  );
  it("is stored in the strict form, and sanitizing it again changes nothing", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        let stored: string;
        try {
          stored = clean(pieces.join("")).html;
        } catch (error) {
          if (error instanceof NestingTooDeep) return;
          throw error;
        }
        expect(strictProblem(stored), stored).toBeNull();
        expect(clean(stored).html).toBe(stored);
      }),
      { numRuns: 2000 },
    );
  });
});
