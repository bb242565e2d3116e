import { createRouter } from "../../lib/openapi";
import * as handlers from "./assets.handlers";
import * as routes from "./assets.routes";

/** `POST /v1/assets`: images for questions (docs/assets.md). The body rules are ASSET_UPLOAD's. */
export const assetsRouter = createRouter().openapi(routes.createAsset, handlers.createAsset);

/**
 * `GET /v1/assets/{id}`: an image's bytes, without a credential. Mounted before the /v1 guard
 * (src/app.ts), behind the public guard that counts it per IP.
 */
export const assetFilesRouter = createRouter().openapi(routes.getAssetFile, handlers.getAssetFile);

/** `GET /v1/quizzes/{id}/assets`, mounted beside the quiz's other routers. */
export const quizAssetsRouter = createRouter().openapi(routes.listQuizAssets, handlers.listQuizAssets);

export { ASSET_UPLOAD } from "./assets.schemas";
