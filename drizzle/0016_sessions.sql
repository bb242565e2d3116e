CREATE TABLE `learner_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`quiz_id` text NOT NULL,
	`origins` text NOT NULL,
	`return_url` text,
	`lti_launch_id` text,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `learner_sessions_token_hash_idx` ON `learner_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `learner_sessions_user_idx` ON `learner_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `report_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`quiz_ids` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `report_sessions_token_hash_idx` ON `report_sessions` (`token_hash`);