import { createRouter } from "../../lib/openapi";
import * as handlers from "./grades.handlers";
import * as routes from "./grades.routes";

/** Mounted at /v1/quizzes. */
export const quizGradesRouter = createRouter().openapi(routes.listQuizGrades, handlers.listQuizGrades);
/** Mounted at /v1/users. */
export const userGradesRouter = createRouter().openapi(routes.listUserGrades, handlers.listUserGrades);
