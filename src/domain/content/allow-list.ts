/**
 * CONTRACT §19's allow-list, in one place: the elements and attributes a stored HTML fragment may
 * hold. Everything else is removed when the text is written (docs/content.md says why each is here).
 */

/** HTML elements kept. */
export const HTML_ELEMENTS: ReadonlySet<string> = new Set(
  (
    "p br strong b em i u s sub sup small code pre kbd blockquote ul ol li dl dt dd table caption thead tbody tfoot tr th td " +
    "span div figure figcaption hr a img"
  ).split(" "),
);

/** MathML presentation elements kept, inside a `math` only. */
export const MATHML_ELEMENTS: ReadonlySet<string> = new Set(
  (
    "math semantics annotation mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle mpadded mphantom " +
    "menclose mover munder munderover mmultiscripts mprescripts none mtable mtr mtd"
  ).split(" "),
);

/** HTML elements written without an end tag. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set(["br", "hr", "img"]);

/** Attributes any kept element may carry. */
export const GLOBAL_ATTRIBUTES: ReadonlySet<string> = new Set(["lang", "dir", "title"]);

/** Attributes kept on particular HTML elements (their values are checked by the sanitizer). */
export const ELEMENT_ATTRIBUTES: Readonly<Record<string, ReadonlySet<string>>> = {
  a: new Set(["href"]),
  img: new Set(["src", "alt", "width", "height"]),
  td: new Set(["colspan", "rowspan", "scope"]),
  th: new Set(["colspan", "rowspan", "scope"]),
};

/** MathML's presentation attributes, kept on any MathML element (`encoding` on `annotation` only). */
export const MATHML_ATTRIBUTES: ReadonlySet<string> = new Set(
  (
    "display mathvariant displaystyle scriptlevel fence separator stretchy symmetric largeop movablelimits accent " +
    "accentunder linethickness notation columnalign rowalign columnspan rowspan"
  ).split(" "),
);

/**
 * Elements whose content the tokenizer never reads as markup (raw text and RCDATA in HTML, plus
 * `plaintext`, which runs to the end): removed with all they hold. Reading them as text and keeping
 * the text would re-emit markup the browser parses (STACK.md's warning about streaming rewriters).
 */
export const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "textarea",
  "title",
  "plaintext",
]);

/**
 * Elements removed with their content (not unwrapped): their content is another language (SVG,
 * annotation-xml's HTML or XML), inert by design (template), or a control or embedding whose text is
 * not the author's prose.
 */
export const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set([
  "svg",
  "template",
  "object",
  "applet",
  "embed",
  "select",
  "option",
  "optgroup",
  "datalist",
  "head",
  "frameset",
  "frame",
  "video",
  "audio",
  "canvas",
  "annotation-xml",
  "maction",
  "button",
  "form",
  "input",
]);

/** Elements that are part of a table's structure (not a cell's content). */
export const TABLE_STRUCTURE: ReadonlySet<string> = new Set(["table", "thead", "tbody", "tfoot", "tr"]);
