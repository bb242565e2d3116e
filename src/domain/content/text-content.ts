import { buildTree, type Element } from "./tree";

/**
 * A stored fragment's text, for the places that show plain text (CSV exports, Export-Skipped,
 * events' titles): its text without markup, a line break for `br` and between blocks, an image's
 * `alt` in brackets, and a formula as the TeX it was written in (its `application/x-tex`
 * annotation, between `\(`…`\)` or `\[`…`\]`) or else its characters.
 */

const BLOCKS = new Set([
  "p",
  "div",
  "blockquote",
  "pre",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "tr",
  "figure",
  "figcaption",
  "caption",
  "hr",
]);

export function textContent(html: string): string {
  const root = buildTree(html, { assetPath: (src) => src }, new Set());
  const parts: string[] = [];
  collect(root, parts);
  return parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

function collect(element: Element, parts: string[]): void {
  for (const child of element.children) {
    if (typeof child === "string") {
      parts.push(child);
      continue;
    }
    if (child.name === "br") parts.push("\n");
    else if (child.name === "img") {
      const alt = child.attributes.find(([name]) => name === "alt")?.[1];
      if (alt) parts.push(`[${alt}]`);
    } else if (child.name === "math") {
      const source = texSource(child);
      const display = child.attributes.some(([name, value]) => name === "display" && value === "block");
      if (source === null) collect(child, parts);
      else parts.push(display ? `\\[${source}\\]` : `\\(${source}\\)`);
    } else if (child.name === "td" || child.name === "th") {
      parts.push(" ");
      collect(child, parts);
      parts.push(" ");
    } else if (BLOCKS.has(child.name)) {
      parts.push("\n");
      collect(child, parts);
      parts.push("\n");
    } else if (child.name !== "annotation") collect(child, parts);
  }
}

/** The TeX a formula was written in: its semantics' application/x-tex annotation. */
function texSource(math: Element): string | null {
  for (const child of math.children) {
    if (typeof child === "string" || child.name !== "semantics") continue;
    for (const inner of child.children) {
      if (typeof inner === "string" || inner.name !== "annotation") continue;
      if (inner.attributes.some(([name, value]) => name === "encoding" && value === "application/x-tex"))
        return inner.children.filter((c) => typeof c === "string").join("");
    }
  }
  return null;
}
