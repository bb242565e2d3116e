import { createRouter } from "../../lib/openapi";
import * as handlers from "./quizzes.handlers";
import * as routes from "./quizzes.routes";

/** `/v1/quizzes`; a quiz's questions and submissions have their own routers, mounted beside this one. */
export const quizzesRouter = createRouter()
  .openapi(routes.listQuizzes, handlers.listQuizzes)
  .openapi(routes.createQuiz, handlers.createQuiz)
  .openapi(routes.getQuiz, handlers.getQuiz)
  .openapi(routes.updateQuiz, handlers.updateQuiz)
  .openapi(routes.deleteQuiz, handlers.deleteQuiz);

/** What creating a submission needs: its deadline and the window, read from the quiz's settings in the batch that writes it. */
export { newSubmissionDeadline, windowOpen } from "./quiz-deadlines";
