import { z } from "@hono/zod-openapi";
import { QUESTION_EXAMPLE, Question } from "../../authoring/question.schemas";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";
import { singleLineText } from "../../lib/text";

// A question's own shapes (Question, QuestionCreate, QuestionPatch) are authoring's: quizzes and
// imports write questions too. What is here is the shape of this resource's list and its examples.

export const QuestionListQuery = z.strictObject({
  ...pageQuery("position"),
  tag: singleLineText(100)
    .optional()
    .openapi({ description: "Only questions with this tag (compared exactly, after trimming).", example: "geography" }),
});

export const QuestionPage = z
  .object({ questions: z.array(Question), next_cursor: nextCursorSchema })
  .openapi({ example: pageExample("questions", [QUESTION_EXAMPLE], QUESTION_EXAMPLE.position) });

/** A question added to the examples' quiz: a formatted (html) multiple choice with partial scoring, stored as sent. */
export const CREATED_QUESTION_EXAMPLE: z.output<typeof Question> = {
  id: "qst_01kan2b6x3r9t5w8y1z4c7e0f2",
  quiz_id: QUESTION_EXAMPLE.quiz_id,
  type: "multiple_choice",
  content_format: "html",
  title: "Strong acids",
  tags: ["chemistry"],
  prompt: "<p>Which of these are <strong>strong</strong> acids in water?</p>",
  points: 2,
  position: 1,
  feedback: {},
  explanation: null,
  pool: null,
  options: [
    { id: "a", text: "H<sub>2</sub>SO<sub>4</sub>" },
    {
      id: "b",
      text: "CH<sub>3</sub>COOH",
      feedback: "<p>Ethanoic acid is weak: few of its molecules give up H<sup>+</sup>.</p>",
    },
    { id: "c", text: "HNO<sub>3</sub>" },
  ],
  correct_option_ids: ["a", "c"],
  scoring: "partial",
  version: 1,
  created_at: "2026-11-23T09:30:00.000Z",
  updated_at: "2026-11-23T09:30:00.000Z",
};

/** The examples' question after a PATCH of its prompt, points and tags. */
export const UPDATED_QUESTION_EXAMPLE: z.output<typeof Question> = {
  ...QUESTION_EXAMPLE,
  prompt: "What is the capital city of France?",
  points: 2,
  tags: ["geography", "capitals"],
  version: 2,
  updated_at: "2026-11-23T09:30:00.000Z",
};
