import { createRouter } from "../../lib/openapi";
import * as questionHandlers from "../questions/questions.handlers";
import * as questionRoutes from "../questions/questions.routes";
import * as submissionHandlers from "../submissions/submissions.handlers";
import * as submissionRoutes from "../submissions/submissions.routes";
import * as handlers from "./quizzes.handlers";
import * as routes from "./quizzes.routes";

/** `/v1/quizzes`, with each quiz's questions and submissions nested under it. */
export const quizzesRouter = createRouter()
  .openapi(routes.listQuizzes, handlers.listQuizzes)
  .openapi(routes.createQuiz, handlers.createQuiz)
  .openapi(routes.getQuiz, handlers.getQuiz)
  .openapi(routes.updateQuiz, handlers.updateQuiz)
  .openapi(routes.deleteQuiz, handlers.deleteQuiz)
  .openapi(questionRoutes.listQuestions, questionHandlers.listQuestions)
  .openapi(questionRoutes.createQuestion, questionHandlers.createQuestion)
  .openapi(questionRoutes.getQuestion, questionHandlers.getQuestion)
  .openapi(questionRoutes.updateQuestion, questionHandlers.updateQuestion)
  .openapi(questionRoutes.deleteQuestion, questionHandlers.deleteQuestion)
  .openapi(submissionRoutes.createSubmission, submissionHandlers.createSubmission)
  .openapi(submissionRoutes.listQuizSubmissions, submissionHandlers.listQuizSubmissions);
