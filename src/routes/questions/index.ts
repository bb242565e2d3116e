import { createRouter } from "../../lib/openapi";
import * as handlers from "./questions.handlers";
import * as routes from "./questions.routes";

/** A quiz's questions: mounted at `/v1/quizzes` (their paths start with the quiz, `/{id}/questions`). */
export const questionsRouter = createRouter()
  .openapi(routes.listQuestions, handlers.listQuestions)
  .openapi(routes.createQuestion, handlers.createQuestion)
  .openapi(routes.getQuestion, handlers.getQuestion)
  .openapi(routes.updateQuestion, handlers.updateQuestion)
  .openapi(routes.deleteQuestion, handlers.deleteQuestion);
