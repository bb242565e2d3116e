/**
 * The policy of /docs and its files (Swagger UI, served from static assets): nothing but this
 * origin's own files, no inline script or style, no eval, no framing. The one allowance beyond
 * 'self' is what the renderer was seen to need in Chromium (npm run docs:screenshot fails on any
 * violation, after clicking through Try it out, a request body, Authorize and the schemas):
 * - img-src data: swagger-ui.css draws the <select> caret and the copy-to-clipboard icon as
 *   data:image/svg+xml backgrounds; without it Chromium reports both as img-src violations.
 * Swagger UI sets its inline styles through the CSSOM (React), which style-src does not govern.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The policy of the report (/reports/) and the landing page (/): the docs' policy without its one
 * allowance (no data: images: the report draws its charts as inline SVG elements, not images), plus
 * Trusted Types with no policy at all, so Chromium refuses every HTML-parsing sink (innerHTML,
 * outerHTML, insertAdjacentHTML, document.write): text from the API can only ever become a text node.
 */
export const REPORTS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/**
 * The policy of the LTI tool's pages (/lti/*, docs/lti.md): the reports' policy, but framable by
 * this origin and the LMS origins a platform registered (`frame_origins`), since an LMS shows the
 * tool in a frame; and forms may post to this origin and to the targets a page names (the
 * deep-linking answer posts to the platform's return URL). Origins come validated
 * (src/domain/web-origin.ts): no space, semicolon or wildcard can widen the policy.
 */
export function toolContentSecurityPolicy(frameOrigins: readonly string[], formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    ["form-action 'self'", ...formTargets].join(" "),
    ["frame-ancestors 'self'", ...frameOrigins].join(" "),
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
}

/**
 * The policy of the player (/play/): the same directives as the report's, kept apart so that
 * neither page's needs widen the other's. The page talks to this origin's API only
 * (connect-src 'self'), writes every text from the API as a text node (Trusted Types with no
 * policy), and is never framed (frame-ancestors 'none'): a page that takes answers must not sit
 * under another site's clicks — but for the LMS origins registered as LTI platforms'
 * frame_origins, where launches land (src/routes/lti-tool/framing.ts). Its token arrives in the URL's fragment, which no request carries.
 */
export const PLAYER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

/**
 * The policy of /shared/ (public/shared/): the modules both the report and the player import
 * (content.js, the formatted-text builder). A script's own policy governs nothing it does inside
 * the page that imports it (that page's policy does); this one only matters if the file is opened
 * as a document, and then allows nothing at all.
 */
export const SHARED_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");
