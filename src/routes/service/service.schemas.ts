import { z } from "@hono/zod-openapi";

export const ServiceIndex = z
  .object({
    name: z.string().openapi({ example: "quiz-api" }),
    version: z.string().openapi({ description: "The deployed version (package.json).", example: "0.4.0" }),
    docs: z.string().openapi({ description: "The API reference page, on this origin.", example: "/docs" }),
    openapi: z.string().openapi({ description: "This OpenAPI document, on this origin.", example: "/openapi.json" }),
  })
  .openapi("ServiceIndex", { example: { name: "quiz-api", version: "0.4.0", docs: "/docs", openapi: "/openapi.json" } });

export const LandingPage = z.string().openapi({
  description: "The landing page (public/index.html).",
  example:
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n    <title>Quiz API</title>\n  </head>\n  <body>\n    <main class="landing">\n      <h1>Quiz API</h1>\n      <ul>\n        <li><a href="/docs">API reference</a></li>\n        <li><a href="/reports/">Reports</a></li>\n        <li><a href="/openapi.json">OpenAPI document</a></li>\n      </ul>\n    </main>\n  </body>\n</html>\n',
});
