// The LTI tool's deep-linking answer page (src/routes/lti-tool/pages.ts): its form carries the
// signed LtiDeepLinkingResponse to the LMS and is submitted as soon as the page loads. A file, not
// an inline script: the tool's pages allow no inline script (Content-Security-Policy). Without
// JavaScript the page's button submits the same form.
for (const form of document.querySelectorAll("form[data-auto-submit]")) form.submit();
