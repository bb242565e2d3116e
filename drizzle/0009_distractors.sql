ALTER TABLE `item_option_counts` ADD `sum_t` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Σ t (total points, micro) of the graded submissions that chose each option, in both populations:
-- every graded submission ("all") and each user's earliest graded one ("first"), as grading keeps it.
UPDATE `item_option_counts` SET `sum_t` = coalesce((
  SELECT sum(CAST(round(s.`points_earned` * 1000000) AS INTEGER))
  FROM `submissions` s, json_each(s.`results`) r, json_each(r.value, '$.chosen') o
  WHERE s.`quiz_id` = `item_option_counts`.`quiz_id` AND s.`status` = 'graded'
    AND json_extract(r.value, '$.question_id') = `item_option_counts`.`question_id`
    AND o.value = `item_option_counts`.`option_id`
    AND (`item_option_counts`.`attempts` = 'all'
      OR s.`attempt` = (SELECT min(f.`attempt`) FROM `submissions` f WHERE f.`quiz_id` = s.`quiz_id` AND f.`user_id` = s.`user_id` AND f.`status` = 'graded'))
), 0);
