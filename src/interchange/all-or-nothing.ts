import type { QuizQuestion } from "./types";

/**
 * What the GIFT and Moodle XML writers cannot express alike: Moodle scores each part of a matching
 * or Cloze question on its own, and GIFT has no all-or-nothing scoring over several right parts.
 */

/** Whether every right part (option, prompt, blank) must be right for any credit, with more than one part. */
export const allOrNothingOfMany = (q: QuizQuestion) =>
  (q.type === "multiple_choice" && q.scoring === "all_or_nothing" && q.correct_option_ids.length > 1) ||
  (q.type === "matching" && q.scoring === "all_or_nothing" && q.prompts.length > 1) ||
  (q.type === "fill_in_blanks" && q.scoring === "all_or_nothing" && q.blanks.length > 1);
