CREATE TABLE `accommodations` (
	`quiz_id` text NOT NULL,
	`user_id` text NOT NULL,
	`extra_time_seconds` integer DEFAULT 0 NOT NULL,
	`extra_attempts` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`quiz_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `grades` (
	`quiz_id` text NOT NULL,
	`user_id` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`first_attempt` integer NOT NULL,
	`first_score` real NOT NULL,
	`latest_attempt` integer NOT NULL,
	`latest_score` real NOT NULL,
	`highest_score` real NOT NULL,
	`score_sum` real NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`quiz_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `grades_user_idx` ON `grades` (`user_id`,`quiz_id`);--> statement-breakpoint
ALTER TABLE `questions` ADD `pool` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `deadline_at` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `graded_by` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `presented` text;--> statement-breakpoint
CREATE INDEX `submissions_overdue_idx` ON `submissions` (`deadline_at`) WHERE status = 'open' AND deadline_at IS NOT NULL;--> statement-breakpoint
UPDATE `submissions` SET `graded_by` = 'request' WHERE `status` = 'graded';--> statement-breakpoint
INSERT INTO `grades` (`quiz_id`, `user_id`, `attempts`, `first_attempt`, `first_score`, `latest_attempt`, `latest_score`, `highest_score`, `score_sum`, `updated_at`)
SELECT s.`quiz_id`, s.`user_id`, count(*), min(s.`attempt`),
  (SELECT f.`score` FROM `submissions` f WHERE f.`quiz_id` = s.`quiz_id` AND f.`user_id` = s.`user_id` AND f.`status` = 'graded' ORDER BY f.`attempt` LIMIT 1),
  max(s.`attempt`),
  (SELECT l.`score` FROM `submissions` l WHERE l.`quiz_id` = s.`quiz_id` AND l.`user_id` = s.`user_id` AND l.`status` = 'graded' ORDER BY l.`attempt` DESC LIMIT 1),
  max(s.`score`), sum(s.`score`), max(s.`graded_at`)
FROM `submissions` s WHERE s.`status` = 'graded' GROUP BY s.`quiz_id`, s.`user_id`;
