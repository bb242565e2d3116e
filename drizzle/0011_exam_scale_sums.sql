CREATE TABLE `item_sums` (
	`quiz_id` text NOT NULL,
	`attempts` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`sum_t` integer DEFAULT 0 NOT NULL,
	`sum_tt` real DEFAULT 0 NOT NULL,
	`items` text DEFAULT '{}' NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`quiz_id`, `attempts`)
);
--> statement-breakpoint
-- Item analysis's sums move into one row per quiz and population: the totals as columns, each
-- question's sums as JSON [n, Σx, Σx², Σp, Σt, Σt², Σxt, right answers], each option's as
-- { question: { option: [count, Σt] } }. Right answers come from question_stats for "all" and from
-- each user's first graded attempt for "first". Doubles are written with 17 digits so that they
-- read back unchanged (SQLite's JSON writes 15). grades.attempts replaces quiz_user_stats.
INSERT INTO `item_sums` (`quiz_id`, `attempts`, `n`, `sum_t`, `sum_tt`, `items`, `options`)
WITH `first_right` AS MATERIALIZED (
  SELECT f.`quiz_id`, json_extract(r.value, '$.question_id') AS `question_id`,
    sum(coalesce(json_extract(r.value, '$.correct'), 0)) AS `c`
  FROM `submissions` f, json_each(f.`results`) r
  WHERE f.`status` = 'graded' AND f.`attempt` = (SELECT min(g.`attempt`) FROM `submissions` g
    WHERE g.`quiz_id` = f.`quiz_id` AND g.`user_id` = f.`user_id` AND g.`status` = 'graded')
  GROUP BY 1, 2
), `right_answers` AS MATERIALIZED (
  SELECT `quiz_id`, 'all' AS `attempts`, `question_id`, `correct_count` AS `c` FROM `question_stats`
  UNION ALL SELECT `quiz_id`, 'first', `question_id`, `c` FROM `first_right`
), `items` AS (
  SELECT s.`quiz_id`, s.`attempts`, json_group_object(s.`question_id`, json_array(s.`n`, s.`sum_x`,
      json(printf('%!.17g', s.`sum_xx`)), s.`sum_p`, s.`sum_t`, json(printf('%!.17g', s.`sum_tt`)),
      json(printf('%!.17g', s.`sum_xt`)), coalesce(ra.`c`, 0))) AS `items`
  FROM `item_stats` s LEFT JOIN `right_answers` ra
    ON ra.`quiz_id` = s.`quiz_id` AND ra.`attempts` = s.`attempts` AND ra.`question_id` = s.`question_id`
  GROUP BY s.`quiz_id`, s.`attempts`
), `options` AS (
  SELECT `quiz_id`, `attempts`, json_group_object(`question_id`, json(`o`)) AS `options` FROM (
    SELECT `quiz_id`, `attempts`, `question_id`, json_group_object(`option_id`, json_array(`count`, `sum_t`)) AS `o`
    FROM `item_option_counts` GROUP BY `quiz_id`, `attempts`, `question_id`)
  GROUP BY `quiz_id`, `attempts`
), `populations` AS (
  SELECT `quiz_id`, `attempts` FROM `item_totals` UNION SELECT `quiz_id`, `attempts` FROM `item_stats`
  UNION SELECT `quiz_id`, `attempts` FROM `item_option_counts`
)
SELECT p.`quiz_id`, p.`attempts`, coalesce(t.`n`, 0), coalesce(t.`sum_t`, 0), coalesce(t.`sum_tt`, 0),
  coalesce(i.`items`, '{}'), coalesce(o.`options`, '{}')
FROM `populations` p
  LEFT JOIN `item_totals` t ON t.`quiz_id` = p.`quiz_id` AND t.`attempts` = p.`attempts`
  LEFT JOIN `items` i ON i.`quiz_id` = p.`quiz_id` AND i.`attempts` = p.`attempts`
  LEFT JOIN `options` o ON o.`quiz_id` = p.`quiz_id` AND o.`attempts` = p.`attempts`;
--> statement-breakpoint
DROP TABLE `item_option_counts`;--> statement-breakpoint
DROP TABLE `item_stats`;--> statement-breakpoint
DROP TABLE `item_totals`;--> statement-breakpoint
DROP TABLE `question_stats`;--> statement-breakpoint
DROP TABLE `quiz_user_stats`;