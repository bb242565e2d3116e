import { createRouter } from "../../lib/openapi";
import * as handlers from "./imports.handlers";
import * as routes from "./imports.routes";

/** `/v1/imports`: question banks in, as jobs (docs/import-export.md). The body rules are IMPORT_UPLOAD's. */
export const importsRouter = createRouter().openapi(routes.createImport, handlers.createImport);

export { IMPORT_UPLOAD } from "./imports.schemas";
