// Formatted text (docs/content.md): an "html" question's texts shown as written, a "text" one's as
// plain text. The one builder of both pages that show questions (the report, public/reports/, and
// the player, public/play/text.js), served from /shared/ under the reports' policy. The stored HTML was sanitized when written, but this page never hands it to an HTML
// parser (its Trusted Types policy forbids the HTML-parsing sinks, and a parser is the one place a mistake
// would run code): it reads the stored form — tags `<name attr="value">`, text escaped with
// &amp; &lt; &gt; &quot; &nbsp; — and builds the nodes itself with createElement and
// setAttribute, checking the allow-list again on the way. Anything else shows as plain text.
const MATHML_NS = "http://www.w3.org/1998/Math/MathML";
const HTML = new Set(
  "p br strong b em i u s sub sup small code pre kbd blockquote ul ol li dl dt dd table caption thead tbody tfoot tr th td span div figure figcaption hr a img".split(
    " ",
  ),
);
const MATHML = new Set(
  "math semantics annotation mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle mpadded mphantom menclose mover munder munderover mmultiscripts mprescripts none mtable mtr mtd".split(
    " ",
  ),
);
const VOID = new Set(["br", "hr", "img"]);
const GLOBAL = new Set(["lang", "dir", "title"]);
const MATH_ATTRIBUTES = new Set(
  "display mathvariant displaystyle scriptlevel fence separator stretchy symmetric largeop movablelimits accent accentunder linethickness notation columnalign rowalign columnspan rowspan encoding".split(
    " ",
  ),
);
const OWN = {
  a: new Set(["href", "rel", "target"]),
  img: new Set(["src", "alt", "width", "height"]),
  td: new Set(["colspan", "rowspan", "scope"]),
  th: new Set(["colspan", "rowspan", "scope"]),
};
const REFERENCES = { amp: "&", lt: "<", gt: ">", quot: '"', nbsp: "\u00a0" };
const decode = (s) => s.replace(/&(amp|lt|gt|quot|nbsp);/g, (_, name) => REFERENCES[name]);
const ASSET = /^\/v1\/assets\/ast_[0-9abcdefghjkmnpqrstvwxyz]{32}$/;
const LINK = /^(https?:\/\/|mailto:)/;
const TAG = /^<(\/?)([a-z]+)((?: [a-z-]+="[^"<>]*")*)>/;
const ATTRIBUTE = / ([a-z-]+)="([^"<>]*)"/g;

function allowed(name, inMath, attribute, value) {
  if (GLOBAL.has(attribute)) return true;
  if (inMath) return MATH_ATTRIBUTES.has(attribute);
  if (!OWN[name]?.has(attribute)) return false;
  if (name === "a" && attribute === "href") return LINK.test(value);
  if (name === "img" && attribute === "src") return ASSET.test(value);
  return true;
}

const appendText = (parent, text) => parent.append(text);

/**
 * The stored fragment as nodes, or null when it is not in the stored form (then it is shown as
 * text). Each run of text goes through `onText(parent, text)` (the player puts a fill-in-the-blanks
 * text's inputs in place of its `{{blank_id}}` markers there); by default it becomes a text node.
 */
function build(html, onText = appendText) {
  const root = document.createDocumentFragment();
  const stack = [root];
  const names = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    const text = html.slice(i, lt === -1 ? html.length : lt);
    if (text.includes(">")) return null;
    if (text) onText(stack[stack.length - 1], decode(text));
    if (lt === -1) break;
    const match = TAG.exec(html.slice(lt, lt + 4096));
    if (!match) return null;
    const [whole, closing, name, attributes] = match;
    i = lt + whole.length;
    if (closing) {
      if (names.pop() !== name) return null;
      stack.pop();
      continue;
    }
    const inMath = names.some((open) => MATHML.has(open));
    if (inMath ? !MATHML.has(name) || name === "math" : !HTML.has(name) && name !== "math") return null;
    const math = inMath || name === "math";
    const element = math ? document.createElementNS(MATHML_NS, name) : document.createElement(name);
    for (const [, attribute, raw] of attributes.matchAll(ATTRIBUTE)) {
      const value = decode(raw);
      if (!allowed(name, math, attribute, value)) return null;
      element.setAttribute(attribute, value);
    }
    if (name === "a") {
      element.setAttribute("rel", "noopener noreferrer");
      element.setAttribute("target", "_blank");
    }
    stack[stack.length - 1].append(element);
    if (!VOID.has(name)) {
      stack.push(element);
      names.push(name);
    }
  }
  return names.length === 0 ? root : null;
}

/**
 * A question's text as shown: nodes for "html", the string itself for "text" (and for html not in
 * the stored form). `onText(parent, text)`, if given, appends each run of the fragment's text.
 */
export function formatted(text, contentFormat, onText) {
  if (contentFormat !== "html" || typeof text !== "string") return text;
  return build(text, onText) ?? text;
}

/** A question's text as plain text (for sorting, chart labels and the like). */
export function plain(text, contentFormat) {
  if (contentFormat !== "html" || typeof text !== "string") return text;
  const nodes = build(text);
  return nodes ? nodes.textContent : text;
}
