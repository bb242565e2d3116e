// The one function that writes a text field of a question (its prompt, an option's, item's,
// prompt's or choice's text, a fill-in-the-blanks text's pieces, a result's feedback and
// explanation) into the page. Today every such field is plain text and becomes one text node.
// When questions gain `content_format: "html"` (sanitized by the service, CONTRACT §19), this is
// the one place that learns to build that markup's elements: every caller already goes through it.

/** Appends `text` to `element` as text (never parsed as HTML) and answers the element. */
export function renderText(element, text) {
  element.append(document.createTextNode(text ?? ""));
  return element;
}
