ALTER TABLE `questions` ADD `answer_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What each existing question's answer and result can add to a submission's row, as
-- src/domain/answers.ts answerRowBytes computes it for new and changed questions.
UPDATE `questions` SET `answer_bytes` = 260 + CASE `type`
  WHEN 'single_choice' THEN 140
  WHEN 'multiple_choice' THEN 140 * json_array_length(`definition`, '$.options')
  WHEN 'true_false' THEN 5
  WHEN 'numeric' THEN 25
  WHEN 'short_text' THEN 3002
  WHEN 'ordering' THEN 70 * json_array_length(`definition`, '$.items')
  WHEN 'matching' THEN 140 * json_array_length(`definition`, '$.prompts')
  WHEN 'fill_in_blanks' THEN 3072 * json_array_length(`definition`, '$.blanks')
  WHEN 'essay' THEN 66004
  ELSE 0 END;
