// The one function that writes a text field of a question (its prompt, an option's, item's,
// prompt's or choice's text, a fill-in-the-blanks text, a result's feedback and explanation) into
// the page. A question in `content_format: "text"` becomes one text node (no markup interpreted);
// one in "html" (sanitized by the service to CONTRACT §19's allow-list) becomes the elements its
// fragment names, built by the report's and the player's one builder (public/shared/content.js)
// with createElement and setAttribute, never an HTML parser (the page's Trusted Types policy
// forbids one). Places that can hold text only (a select's options, aria-labels, announcements)
// take `plainText`.
import { formatted, plain } from "../shared/content.js";

/**
 * Appends `text` to `element` as the question's format says and answers the element; `onText`
 * (parent, run) appends each run of text (default: a text node), so a fill-in-the-blanks text can
 * put its inputs in place of its markers inside formatted text.
 */
export function renderText(element, text, contentFormat = "text", onText = undefined) {
  const value = text ?? "";
  const append = onText ?? ((parent, run) => parent.append(document.createTextNode(run)));
  const shown = formatted(value, contentFormat, onText);
  if (typeof shown === "string") append(element, shown);
  else {
    element.classList.add("formatted");
    element.append(shown);
  }
  return element;
}

/** A question's text as plain text (its text content for "html"). */
export function plainText(text, contentFormat = "text") {
  return plain(text ?? "", contentFormat);
}

/** The block a formatted text goes in: a paragraph holds text, a div the paragraphs and tables of html. */
export const blockFor = (contentFormat) => (contentFormat === "html" ? "div" : "p");
