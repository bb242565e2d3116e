import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponses } from "../../lib/openapi";

const ServiceIndex = z
  .object({
    name: z.string().openapi({ example: "quiz-api" }),
    version: z.string().openapi({ description: "The deployed version (package.json).", example: "0.3.0" }),
    docs: z.string().openapi({ description: "The API reference page, on this origin.", example: "/docs" }),
    openapi: z.string().openapi({ description: "This OpenAPI document, on this origin.", example: "/openapi.json" }),
  })
  .openapi("ServiceIndex", { example: { name: "quiz-api", version: "0.3.0", docs: "/docs", openapi: "/openapi.json" } });

export const serviceIndex = defineRoute({
  operationId: "serviceIndex",
  method: "get",
  path: "/",
  tags: ["Service"],
  summary: "What this origin serves",
  description:
    "Public, no credential. A client whose `Accept` ranks `text/html` above `application/json` (a browser) gets a small page linking `/docs`, `/reports/` and `/openapi.json`; anyone else gets this JSON. The links are paths on this origin, so the answer names no host and caches alike for every one (`Vary: Accept`).",
  security: [],
  responses: {
    200: {
      description: "The service's name and version and where its documents are; or, to a browser, the landing page.",
      content: {
        "application/json": { schema: ServiceIndex },
        "text/html": {
          schema: z.string().openapi({
            description: "The landing page (public/index.html).",
            example:
              '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n    <title>Quiz API</title>\n  </head>\n  <body>\n    <main class="landing">\n      <h1>Quiz API</h1>\n      <ul>\n        <li><a href="/docs">API reference</a></li>\n        <li><a href="/reports/">Reports</a></li>\n        <li><a href="/openapi.json">OpenAPI document</a></li>\n      </ul>\n    </main>\n  </body>\n</html>\n',
          }),
        },
      },
    },
    ...errorResponses(400),
  },
});
