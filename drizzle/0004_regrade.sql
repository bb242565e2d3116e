CREATE TABLE `item_option_counts` (
	`quiz_id` text NOT NULL,
	`attempts` text NOT NULL,
	`question_id` text NOT NULL,
	`option_id` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`quiz_id`, `attempts`, `question_id`, `option_id`)
);
--> statement-breakpoint
CREATE TABLE `item_stats` (
	`quiz_id` text NOT NULL,
	`attempts` text NOT NULL,
	`question_id` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`sum_x` integer DEFAULT 0 NOT NULL,
	`sum_xx` real DEFAULT 0 NOT NULL,
	`sum_p` integer DEFAULT 0 NOT NULL,
	`sum_t` integer DEFAULT 0 NOT NULL,
	`sum_tt` real DEFAULT 0 NOT NULL,
	`sum_xt` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`quiz_id`, `attempts`, `question_id`)
);
--> statement-breakpoint
CREATE TABLE `item_totals` (
	`quiz_id` text NOT NULL,
	`attempts` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	`sum_t` integer DEFAULT 0 NOT NULL,
	`sum_tt` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`quiz_id`, `attempts`)
);
--> statement-breakpoint
CREATE TABLE `job_changes` (
	`job_id` text NOT NULL,
	`submission_id` text NOT NULL,
	`user_id` text NOT NULL,
	`score_before` real NOT NULL,
	`score_after` real NOT NULL,
	PRIMARY KEY(`job_id`, `submission_id`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`scope` text NOT NULL,
	`quiz_id` text NOT NULL,
	`params` text NOT NULL,
	`cursor` text,
	`chunk_token` text,
	`done` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`sum_before` real DEFAULT 0 NOT NULL,
	`result` text,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `jobs_unfinished_idx` ON `jobs` (`updated_at`) WHERE status IN ('queued', 'running');--> statement-breakpoint
-- Graded results name the options each choice answer chose (item analysis counts them): from the
-- entry's own type and response (results graded before versions), else from the response stored
-- in the answers and the type of the version graded.
UPDATE `submissions` SET `results` = (
  SELECT json_group_array(json(CASE WHEN e.`type` IN ('single_choice', 'multiple_choice') THEN json_set(e.value, '$.chosen', json(
      CASE WHEN e.`response` IS NULL THEN '[]' WHEN e.`type` = 'single_choice' THEN json_array(e.`response`) ELSE e.`response` END))
    ELSE e.value END))
  FROM (
    SELECT r.key, r.value,
      coalesce(json_extract(r.value, '$.type'), (SELECT v.`type` FROM `question_versions` v
        WHERE v.`question_id` = json_extract(r.value, '$.question_id') AND v.`version` = json_extract(r.value, '$.version'))) AS `type`,
      CASE WHEN json_type(r.value, '$.type') IS NOT NULL THEN json_extract(r.value, '$.response')
        ELSE (SELECT json_extract(a.value, '$.response') FROM json_each(`submissions`.`answers`) a
          WHERE json_extract(a.value, '$.question_id') = json_extract(r.value, '$.question_id') ORDER BY a.key DESC LIMIT 1) END AS `response`
    FROM json_each(`submissions`.`results`) r ORDER BY r.key
  ) e
) WHERE `status` = 'graded' AND `results` IS NOT NULL;
--> statement-breakpoint
-- Item analysis of the submissions graded before this migration: each answer's points (micro) and
-- the submission's total, for every graded submission ("all") and each user's earliest ("first").
INSERT INTO `item_stats` (`quiz_id`, `attempts`, `question_id`, `n`, `sum_x`, `sum_xx`, `sum_p`, `sum_t`, `sum_tt`, `sum_xt`)
WITH `answered` AS (
  SELECT s.`quiz_id`, s.`attempt` = (SELECT min(f.`attempt`) FROM `submissions` f WHERE f.`quiz_id` = s.`quiz_id` AND f.`user_id` = s.`user_id` AND f.`status` = 'graded') AS `first`,
    json_extract(r.value, '$.question_id') AS `question_id`,
    CAST(round(json_extract(r.value, '$.points_earned') * 1000000) AS INTEGER) AS `x`,
    CAST(round(json_extract(r.value, '$.points_possible') * 1000000) AS INTEGER) AS `p`,
    CAST(round(s.`points_earned` * 1000000) AS INTEGER) AS `t`
  FROM `submissions` s, json_each(s.`results`) r WHERE s.`status` = 'graded'
), `populations` AS (
  SELECT 'all' AS `attempts`, * FROM `answered` UNION ALL SELECT 'first', * FROM `answered` WHERE `first`
)
SELECT `quiz_id`, `attempts`, `question_id`, count(*), sum(`x`), total(`x` * `x`), sum(`p`), sum(`t`), total(`t` * `t`), total(`x` * `t`)
FROM `populations` GROUP BY `quiz_id`, `attempts`, `question_id`;
--> statement-breakpoint
INSERT INTO `item_totals` (`quiz_id`, `attempts`, `n`, `sum_t`, `sum_tt`)
WITH `graded` AS (
  SELECT s.`quiz_id`, s.`attempt` = (SELECT min(f.`attempt`) FROM `submissions` f WHERE f.`quiz_id` = s.`quiz_id` AND f.`user_id` = s.`user_id` AND f.`status` = 'graded') AS `first`,
    CAST(round(s.`points_earned` * 1000000) AS INTEGER) AS `t`
  FROM `submissions` s WHERE s.`status` = 'graded'
), `populations` AS (
  SELECT 'all' AS `attempts`, * FROM `graded` UNION ALL SELECT 'first', * FROM `graded` WHERE `first`
)
SELECT `quiz_id`, `attempts`, count(*), sum(`t`), total(`t` * `t`) FROM `populations` GROUP BY `quiz_id`, `attempts`;
--> statement-breakpoint
INSERT INTO `item_option_counts` (`quiz_id`, `attempts`, `question_id`, `option_id`, `count`)
WITH `chosen` AS (
  SELECT s.`quiz_id`, s.`attempt` = (SELECT min(f.`attempt`) FROM `submissions` f WHERE f.`quiz_id` = s.`quiz_id` AND f.`user_id` = s.`user_id` AND f.`status` = 'graded') AS `first`,
    json_extract(r.value, '$.question_id') AS `question_id`, o.value AS `option_id`
  FROM `submissions` s, json_each(s.`results`) r, json_each(r.value, '$.chosen') o WHERE s.`status` = 'graded'
), `populations` AS (
  SELECT 'all' AS `attempts`, * FROM `chosen` UNION ALL SELECT 'first', * FROM `chosen` WHERE `first`
)
SELECT `quiz_id`, `attempts`, `question_id`, `option_id`, count(*) FROM `populations` GROUP BY `quiz_id`, `attempts`, `question_id`, `option_id`;
