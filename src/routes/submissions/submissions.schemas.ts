import { z } from "@hono/zod-openapi";
import { MAX_QUESTIONS_PER_QUIZ } from "../../authoring/question.schemas";
import { MAX_ANSWER_SEQ, MAX_REVIEW_FEEDBACK_LENGTH } from "../../domain/answers";
import { CONTENT_FORMATS } from "../../domain/content/question-content";
import { QUESTION_TYPES, SHOWN_FIELDS } from "../../domain/question-types";
import { GRADED_BY, SUBMISSION_STATUSES } from "../../domain/submissions";
import { idSchema } from "../../lib/ids";
import { pageQuery } from "../../lib/pagination";
import { multiLineText } from "../../lib/text";

// nonoptional: zod 4 already refuses an object without the key; this makes the document say
// `required` too (an unknown() alone is documented as optional).
const Response = z.unknown().nonoptional().openapi({
  description:
    "single_choice: one of the question's option ids; multiple_choice: an array of its option ids, without repeats; true_false: a boolean; short_text: a string of at most 1 000 characters; numeric: a finite number; ordering: every item id once, in order; matching: an object of prompt ids to choice ids; fill_in_blanks: an object of blank ids to strings of at most 1 000 characters.",
  example: "a",
});

const AnswerInput = z.strictObject({ question_id: idSchema("question"), response: Response }).openapi("AnswerInput");

const answers = z
  .array(AnswerInput)
  .max(MAX_QUESTIONS_PER_QUIZ)
  .openapi({ description: "At most one answer per question; questions left out are unanswered and earn 0." });

export const SubmissionCreate = z
  .strictObject({
    user_id: idSchema("user").optional().openapi({
      description:
        "The user taking the quiz; required but for a learner token, whose user it is when left out (another user → 403).",
    }),
    answers: answers.default([]),
    lti_launch_id: idSchema("ltiLaunch").optional().openapi({
      description:
        "The LTI launch the user is taking the quiz under (POST /v1/lti/launches): the user's kept grade at this quiz then goes back to the launch's AGS line item. A launch of another user or quiz → 400.",
    }),
  })
  .openapi("SubmissionCreate", {
    example: {
      user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
      answers: [{ question_id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r", response: "a" }],
    },
  });

export const AnswersPut = z
  .strictObject({ answers })
  .openapi("AnswersPut", { example: { answers: [{ question_id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r", response: "b" }] } });

const seq = z.number().int().min(1).max(MAX_ANSWER_SEQ).openapi({
  description:
    "Raised by the client with every edit of the question (a millisecond clock serves): the stored answer is the one with the highest seq. 1 to 2^53 − 1.",
  example: 1795335120417,
});

export const AnswerSave = z
  .strictObject({
    response: Response.nullable().openapi({
      description: "As in the whole-answers PUT for the question's type; null clears the answer (its seq is kept).",
    }),
    seq,
  })
  .openapi("AnswerSave", { example: { response: "b", seq: 1795335120417 } });

export const SavedAnswer = z
  .object({
    question_id: idSchema("question"),
    response: Response.nullable().openapi({ description: "The stored response; null: unanswered (cleared)." }),
    seq: z.number().int().min(0).openapi({ description: "The stored answer's seq." }),
    saved_at: z.string().datetime().openapi({ description: "When the stored answer was written." }),
    stale: z.boolean().openapi({
      description:
        "true: the save's seq was not higher than the stored one, so it changed nothing and this is the answer stored before it.",
    }),
  })
  .openapi("SavedAnswer", {
    example: {
      question_id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
      response: "b",
      seq: 1795335120417,
      saved_at: "2026-11-22T08:12:00.000Z",
      stale: false,
    },
  });

const status = z.enum(SUBMISSION_STATUSES);

/** A question as a submission presents it (domain/reveal presentedQuestion). */
const PresentedQuestionView = z
  .object({
    type: z.enum(QUESTION_TYPES),
    content_format: z.enum(CONTENT_FORMATS).openapi({
      description: 'How its texts are read: `"text"` plain, `"html"` a sanitized HTML fragment (docs/content.md).',
    }),
    prompt: z.string(),
    points: z.number(),
    ...SHOWN_FIELDS,
  })
  .openapi("PresentedQuestion");
export type PresentedQuestionView = z.output<typeof PresentedQuestionView>;

export const SubmissionListQuery = z.strictObject({
  ...pageQuery("submission"),
  status: status.optional(),
});

const QUIZ = "quiz_01kamz3f7c9n0p8s6e5vwx2y4r";
const Q1 = "qst_01kamz3f7c9n0p8s6e5vwx2y4r";
const Q2 = "qst_01kamz3g1d2e3f4g5h6j7k8m9n";

/** The examples' submission: Ada's first attempt at the quiz the examples create, graded. */
export const SUBMISSION_EXAMPLE = {
  id: "sub_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: QUIZ,
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  attempt: 1,
  status: "graded" as const,
  answers: [
    { question_id: Q1, response: "a", seq: 1795335120417, saved_at: "2026-11-22T08:12:00.000Z" },
    { question_id: Q2, response: false, seq: 1795334400000, saved_at: "2026-11-22T08:00:00.000Z" },
  ],
  score: 50,
  deadline_at: "2026-11-22T08:30:00.000Z",
  graded_by: "request" as const,
  questions: [
    { question_id: Q1, position: 1 },
    { question_id: Q2, position: 2 },
  ],
  points_earned: 1,
  points_possible: 2,
  feedback: "Keep practising.",
  created_at: "2026-11-22T08:00:00.000Z",
  updated_at: "2026-11-22T08:20:00.000Z",
  graded_at: "2026-11-22T08:20:00.000Z",
};

/** The same submission while it was open, its first question answered with `response`. */
export function openSubmissionExample(response: unknown, updatedAt: string) {
  return {
    ...SUBMISSION_EXAMPLE,
    status: "open" as const,
    answers: [{ question_id: Q1, response, seq: Date.parse(updatedAt), saved_at: updatedAt }],
    score: null,
    graded_by: null,
    points_earned: null,
    points_possible: null,
    feedback: null,
    updated_at: updatedAt,
    graded_at: null,
  };
}

export const Submission = z
  .object({
    id: idSchema("submission"),
    quiz_id: idSchema("quiz"),
    user_id: idSchema("user"),
    attempt: z.number().int().openapi({ description: "1 for the user's first submission to this quiz, and so on." }),
    status,
    answers: z
      .array(
        z.object({
          question_id: z.string(),
          response: Response.nullable().openapi({ description: "null: cleared by a one-answer save (unanswered, earns 0)." }),
          seq: z.number().int().min(0).openapi({
            description:
              "The seq of the write that stored it: a one-answer save's own, or the time in milliseconds of the whole-answers write (0 for answers stored before seqs existed).",
          }),
          saved_at: z.string().datetime().openapi({ description: "When it was written." }),
        }),
      )
      .openapi({ description: "The stored answer of each question answered, with its seq." }),
    score: z.number().nullable().openapi({ description: "Percentage 0–100 once graded, else null." }),
    deadline_at: z.string().datetime().nullable().openapi({
      description:
        "Answers are refused from this instant (409 deadline_passed); an open submission is graded at it by the service (graded_by deadline). The earliest of created_at + time limit + the user's extra time and the quiz's available_until; null: none. A quiz change that ends the window sooner or shortens the time limit moves it earlier (never later).",
    }),
    graded_by: z.enum(GRADED_BY).nullable().openapi({ description: '"request" (a grade call) or "deadline"; null while open.' }),
    questions: z
      .array(
        z.object({
          question_id: idSchema("question"),
          position: z.number().int().min(1),
          option_order: z.array(z.string()).optional().openapi({
            description:
              "The order this submission presents the question's options (choice questions, when the quiz shuffles options), items (ordering, always) or choices (matching, always) in: drawn uniformly at random at creation, so it tells nothing of the key.",
          }),
          question: PresentedQuestionView.optional().openapi({
            description:
              "GET /v1/submissions/{id} only: the question as this credential sees it (type, prompt, points and its options, items, prompts, choices or text), its list in the order above; the key only to quizzes:write (as in GET /v1/quizzes/{id}/questions), so a player needs no other read.",
          }),
        }),
      )
      .nullable()
      .openapi({
        description:
          "The questions this submission presents, in its order, fixed at creation (pools drawn, questions and options shuffled as the quiz says; ordering items and matching choices always in an order of its own). Answers to other questions → 400. null for submissions created before presentations were stored: every question of the quiz.",
      }),
    points_earned: z.number().nullable().openapi({ description: "Once graded, else null." }),
    points_possible: z.number().nullable().openapi({ description: "Once graded, else null." }),
    feedback: z.string().nullable().openapi({ description: "The grade's feedback once graded, else null." }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    graded_at: z.string().datetime().nullable(),
  })
  .openapi("Submission", { example: SUBMISSION_EXAMPLE });

export const GradeResult = z
  .object({
    submission_id: idSchema("submission"),
    score: z.number().openapi({ description: "Percentage 0–100, rounded to 2 decimals.", example: 87.5 }),
    feedback: z.string().openapi({
      description: "The message of the quiz's feedback band for this score; without a matching band, the points and the score.",
      example: "7 of 10 points (70%).",
    }),
    points_earned: z.number(),
    points_possible: z.number(),
    status: z.enum(["graded", "needs_review"]).openapi({
      description:
        "`needs_review`: an answered essay waits for its review; the score is provisional (essays count 0 until reviewed).",
    }),
    graded_at: z.string().datetime().nullable().openapi({ description: "Null while the submission needs review." }),
  })
  .openapi("GradeResult", {
    example: {
      submission_id: SUBMISSION_EXAMPLE.id,
      score: 50,
      feedback: "Keep practising.",
      points_earned: 1,
      points_possible: 2,
      status: "graded",
      graded_at: "2026-11-22T08:20:00.000Z",
    },
  });

const AnswerResult = z
  .object({
    question_id: z.string(),
    question_version: z.number().int().optional().openapi({
      description:
        "The version of the question this answer was graded against (absent on answers graded before versions existed).",
    }),
    type: z.enum(QUESTION_TYPES),
    response: Response.nullable(),
    correct: z.boolean(),
    points_earned: z.number().nullable().openapi({ description: "Null for an answered essay waiting for its review." }),
    points_possible: z.number(),
    feedback: z.string().nullable().openapi({
      description:
        "The question's feedback, part of the key: null until the reveal policy shows the key to this credential. For a reviewed essay, the review's, always.",
    }),
    explanation: z
      .string()
      .nullable()
      .openapi({ description: "Part of the key: null until the reveal policy shows the key to this credential." }),
    option_feedback: z
      .array(z.object({ option_id: z.string(), feedback: z.string() }))
      .optional()
      .openapi({
        description:
          "Choice questions, once the reveal policy shows the key to this credential: the feedback of each option the response chose that has one; absent when none has.",
      }),
    correct_answer: z.unknown().optional().openapi({
      description:
        "The key, when the quiz's settings.show_correct_answers shows it to this credential (always with quizzes:write).",
    }),
  })
  .openapi("AnswerResult");

export const Results = GradeResult.extend({
  quiz_id: idSchema("quiz"),
  user_id: idSchema("user"),
  graded_by: z.enum(GRADED_BY).openapi({ description: "Who closed it: a grade call (request) or its deadline." }),
  answers: z.array(AnswerResult),
}).openapi("Results", {
  description: "As a credential with quizzes:write reads them: with the key.",
  example: {
    submission_id: SUBMISSION_EXAMPLE.id,
    score: 50,
    feedback: "Keep practising.",
    points_earned: 1,
    points_possible: 2,
    status: "graded",
    graded_at: "2026-11-22T08:20:00.000Z",
    quiz_id: QUIZ,
    user_id: SUBMISSION_EXAMPLE.user_id,
    graded_by: "request",
    answers: [
      {
        question_id: Q1,
        question_version: 1,
        type: "single_choice",
        response: "a",
        correct: true,
        points_earned: 1,
        points_possible: 1,
        feedback: null,
        explanation: "Paris has been the capital since 987.",
        correct_answer: "a",
      },
      {
        question_id: Q2,
        question_version: 1,
        type: "true_false",
        response: false,
        correct: false,
        points_earned: 0,
        points_possible: 1,
        feedback: null,
        explanation: null,
        correct_answer: true,
      },
    ],
  },
});

export const ReviewInput = z
  .strictObject({
    points: z
      .number()
      .min(0)
      .max(1_000_000)
      .openapi({ description: "0 to the question's points, at most 6 decimals.", example: 7.5 }),
    feedback: multiLineText(MAX_REVIEW_FEEDBACK_LENGTH, 1).nullable().optional().openapi({
      description: "Shown in the results as the answer's feedback.",
      example: "Clear on scattering; say more about wavelength.",
    }),
  })
  .openapi("ReviewInput", { example: { points: 7.5, feedback: "Clear on scattering; say more about wavelength." } });
