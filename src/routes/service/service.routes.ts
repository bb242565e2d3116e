import { defineRoute, errorResponses } from "../../lib/openapi";
import { LandingPage, ServiceIndex } from "./service.schemas";

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
          schema: LandingPage,
        },
      },
    },
    ...errorResponses(400),
  },
});
