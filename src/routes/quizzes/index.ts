import { createRouter } from "../../lib/openapi";
import * as exportHandlers from "./export.handlers";
import * as exportRoutes from "./export.routes";
import * as handlers from "./quizzes.handlers";
import * as routes from "./quizzes.routes";

/** `/v1/quizzes`; a quiz's questions and submissions have their own routers, mounted beside this one. */
export const quizzesRouter = createRouter()
  .openapi(routes.listQuizzes, handlers.listQuizzes)
  .openapi(routes.createQuiz, handlers.createQuiz)
  .openapi(routes.getQuiz, handlers.getQuiz)
  .openapi(routes.updateQuiz, handlers.updateQuiz)
  .openapi(routes.deleteQuiz, handlers.deleteQuiz)
  .openapi(exportRoutes.exportQuiz, exportHandlers.exportQuiz);
