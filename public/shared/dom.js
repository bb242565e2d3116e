// Element builders the player and the report share (public/play/, public/reports/), served from
// /shared/. Every child that is not a node becomes a text node, so text from the API is never
// parsed as HTML; each page's Content-Security-Policy (Trusted Types with no policy) makes every
// HTML-parsing property and method throw anyway.
const SVG_NS = "http://www.w3.org/2000/svg";

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** An HTML element: h("li", { class: "answered" }, "Question 1"). */
export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element: svg("rect", { x: 0, y: 0, width: 10, height: 10 }). */
export function svg(tag, attributes, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  return build(element, {}, children);
}

let nextId = 0;
/** A document-unique id, for labels, aria-labelledby and aria-describedby. */
export function uid(prefix) {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

export const byId = (id) => document.getElementById(id);

/** A table that scrolls by itself on a narrow screen (the page never does), reachable by keyboard (the report's .table-scroll). */
export function scrollable(label, table) {
  return h("div", { class: "table-scroll", role: "region", "aria-label": label, tabindex: 0 }, table);
}
