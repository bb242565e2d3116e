/**
 * How an item's XML content becomes the question's texts: as plain text (content.ts's treeText,
 * its losses named), or — when the item holds markup plain text would lose — as HTML fragments
 * (html.ts's treeHtml) that the sanitizer then keeps to the allow-list, MathML included, and
 * whose `img`s name the assets the package's files become (images.ts).
 */
import { type Losses, treeText } from "../../content";
import { holdsMarkup, textAsHtml, treeHtml } from "../../html";
import type { XmlElement, XmlNode } from "../../xml";

type Inline = (e: XmlElement) => string | undefined;

export interface Render {
  html: boolean;
  losses: Losses;
  /** A text of the question (its prompt, a feedback, an option's text). */
  text(nodes: XmlNode[], inline?: Inline): string;
  /** One line of text (an option, a prompt of a matching): plain text folds its line breaks. */
  line(nodes: XmlNode[], inline?: Inline): string;
  /** A part of the question text standing on its own (an interaction's prompt): its own lines, or its own element. */
  block(nodes: XmlNode[], inline?: Inline): string;
  /** Plain text whatever the question's format (accepted answers, a gap's word, a true/false label). */
  plain(nodes: XmlNode[]): string;
}

/** QTI's own elements: the structure of interactions and feedback, looked into for markup but not markup themselves. */
const STRUCTURE =
  /Interaction$|^(simpleChoice|simpleAssociableChoice|simpleMatchSet|gapText|gap|inlineChoice|prompt|feedbackInline|feedbackBlock|modalFeedback|contentBody|rubricBlock|itemBody)$/;
/** Content that is not text of the question, or media the service drops either way (named as such in plain text). */
const NOT_TEXT = new Set([
  "stylesheet",
  "templateBlock",
  "templateInline",
  "printedVariable",
  "object",
  "audio",
  "video",
  "iframe",
  "embed",
]);

/** Whether the item's content needs HTML to be kept: an element beyond paragraphs and line breaks (emphasis, a list, an image, MathML, …). */
export function needsHtml(nodes: XmlNode[]): boolean {
  const list: XmlNode[] = nodes.filter((n) => typeof n !== "string");
  return list.some((n) =>
    holdsMarkup([n], (e) => (NOT_TEXT.has(e.name) ? "skip" : STRUCTURE.test(e.name) ? "descend" : undefined)),
  );
}

export const plainRender = (losses: Losses): Render => ({
  html: false,
  losses,
  text: (nodes, inline) => treeText(nodes, losses, inline),
  line: (nodes, inline) => treeText(nodes, losses, inline).replace(/\s*\n\s*/g, " "),
  block: (nodes, inline) => `\n${treeText(nodes, losses, inline)}\n`,
  plain: (nodes) => treeText(nodes, losses),
});

/**
 * MathML 2's `mfenced` (which MathML Core and the allow-list leave out) as what it stands for: its
 * arguments in an `mrow` between `mo`s of its open and close fences, with its separators between
 * them (MathML 3 §3.3.8: "(", ")" and "," unless given, the last separator repeated).
 */
function fenced(e: XmlElement, render: (nodes: XmlNode[]) => string): string {
  const mo = (c: string) => (c === "" ? "" : `<mo>${textAsHtml(c)}</mo>`);
  const args = e.children.filter((c): c is XmlElement => typeof c !== "string");
  const separators = [...(e.attrs.separators ?? ",").replace(/\s+/g, "")];
  const parts = args.map((a, i) => {
    const sep = i === 0 ? "" : (separators[i - 1] ?? separators[separators.length - 1] ?? "");
    return `${mo(sep)}${render([a])}`;
  });
  return `<mrow>${mo(e.attrs.open ?? "(")}${parts.join("")}${mo(e.attrs.close ?? ")")}</mrow>`;
}

/**
 * `image` gives the asset path of an `img`'s src (a file of the package), or undefined when the
 * image is dropped (it has then noted why): the element is left out.
 */
export function htmlRender(losses: Losses, image: (src: string) => string | undefined): Render {
  const withImages =
    (inline?: Inline): Inline =>
    (e) => {
      const own = inline?.(e);
      if (own !== undefined) return own;
      // QTI 3 wraps feedback and rubrics in a content body: its content is the text.
      if (e.name === "contentBody") return text(e.children, inline);
      if (e.name === "mfenced") return fenced(e, (nodes) => text(nodes, inline));
      if (NOT_TEXT.has(e.name) && !["object", "audio", "video", "iframe", "embed"].includes(e.name)) return "";
      if (e.name !== "img") return undefined;
      return image(e.attrs.src ?? "") === undefined ? "" : undefined;
    };
  const text = (nodes: XmlNode[], inline?: Inline) =>
    treeHtml(nodes, { inline: withImages(inline), src: (src) => image(src) ?? "" });
  return {
    html: true,
    losses,
    text,
    line: text,
    block: (nodes, inline) => `<div>${text(nodes, inline)}</div>`,
    plain: (nodes) => treeText(nodes, losses),
  };
}
