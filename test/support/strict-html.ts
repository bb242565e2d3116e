/**
 * A strict reader of stored fragments, written apart from the sanitizer so that it does not share
 * its mistakes: it accepts only the form the sanitizer promises (docs/content.md) and names the
 * first thing outside it. Tags are `<name attr="value" …>` or `</name>`, properly nested; text
 * and values hold no raw `<`, `>` or `"` and only the references &amp; &lt; &gt; &quot; &nbsp;;
 * every element and attribute is on CONTRACT §19's list; links are http(s)/mailto with rel and
 * target set; images are assets.
 */

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
  "display mathvariant displaystyle scriptlevel fence separator stretchy symmetric largeop movablelimits accent accentunder linethickness notation columnalign rowalign columnspan rowspan".split(
    " ",
  ),
);
const OWN: Record<string, Set<string>> = {
  a: new Set(["href", "rel", "target"]),
  img: new Set(["src", "alt", "width", "height"]),
  td: new Set(["colspan", "rowspan", "scope"]),
  th: new Set(["colspan", "rowspan", "scope"]),
};
const ASSET_SRC = /^\/v1\/assets\/ast_[0-9abcdefghjkmnpqrstvwxyz]{32}$/;
const NAME = /^[a-z][a-z0-9-]*$/;
const REFERENCE = /^&(amp|lt|gt|quot|nbsp);/;

/** The first problem of `html` as a stored fragment, or null when it is one. */
export function strictProblem(html: string): string | null {
  const stack: string[] = [];
  let i = 0;
  const checkText = (text: string, where: string): string | null => {
    for (let j = 0; j < text.length; j++) {
      const c = text[j];
      if (c === "<" || c === ">" || c === '"') return `raw ${c} in ${where}`;
      if (c === "&" && !REFERENCE.test(text.slice(j, j + 6))) return `a bare & in ${where}`;
    }
    return null;
  };
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    const text = html.slice(i, lt === -1 ? html.length : lt);
    const textProblem = checkText(text.replaceAll('"', ""), "text");
    if (textProblem) return textProblem;
    if (lt === -1) break;
    const gt = tagEnd(html, lt);
    if (gt === -1) return "a tag without its >";
    const tag = html.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith("/")) {
      const name = tag.slice(1);
      if (stack.pop() !== name) return `</${name}> closes what it did not open`;
      continue;
    }
    const [name, ...rest] = splitTag(tag);
    if (name === undefined || !NAME.test(name)) return `a tag named ${name}`;
    const inMath = stack.some((open) => MATHML.has(open));
    if (inMath ? !MATHML.has(name) || name === "math" : !HTML.has(name) && name !== "math") return `<${name}> here`;
    const attributes = new Map<string, string>();
    for (const part of rest) {
      const match = /^([a-z-]+)="([^"]*)"$/.exec(part);
      if (!match) return `an attribute written ${part}`;
      const [, attribute, value] = match as unknown as [string, string, string];
      const valueProblem = checkText(value, `${name}@${attribute}`);
      if (valueProblem) return valueProblem;
      const allowed =
        GLOBAL.has(attribute) ||
        (MATHML.has(name)
          ? MATH_ATTRIBUTES.has(attribute) || (name === "annotation" && attribute === "encoding")
          : OWN[name]?.has(attribute));
      if (!allowed) return `${name}@${attribute}`;
      if (attributes.has(attribute)) return `${name}@${attribute} twice`;
      attributes.set(attribute, value.replaceAll("&amp;", "&"));
    }
    if (name === "a") {
      const href = attributes.get("href") ?? "";
      if (!/^(https?:\/\/|mailto:)/.test(href)) return `a link to ${href}`;
      if (attributes.get("rel") !== "noopener noreferrer" || attributes.get("target") !== "_blank")
        return "a link without rel and target";
    }
    if (name === "img" && !ASSET_SRC.test(attributes.get("src") ?? "")) return `an img of ${attributes.get("src")}`;
    if (!VOID.has(name)) stack.push(name);
  }
  return stack.length === 0 ? null : `<${stack.at(-1)}> left open`;
}

/** The `>` ending the tag at `lt`, outside quoted values. */
function tagEnd(html: string, lt: number): number {
  let quoted = false;
  for (let j = lt + 1; j < html.length; j++) {
    if (html[j] === '"') quoted = !quoted;
    else if (html[j] === ">" && !quoted) return j;
  }
  return -1;
}

/** A tag's name and its `attr="value"` parts. */
function splitTag(tag: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let j = 0; j <= tag.length; j++) {
    if (tag[j] === '"') quoted = !quoted;
    if (j === tag.length || (tag[j] === " " && !quoted)) {
      if (j > start) parts.push(tag.slice(start, j));
      start = j + 1;
    }
  }
  return parts;
}
