CREATE TABLE `api_key_usage` (
	`key_id` text NOT NULL,
	`date` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key_id`, `date`)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`rotated_to` text,
	`last_used_at` text,
	`total_requests` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `oauth_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`secret_rotated_at` text
);
--> statement-breakpoint
CREATE TABLE `question_stats` (
	`quiz_id` text NOT NULL,
	`question_id` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`correct_count` integer DEFAULT 0 NOT NULL,
	`points_earned_micro` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`quiz_id`, `question_id`)
);
--> statement-breakpoint
CREATE TABLE `questions` (
	`id` text PRIMARY KEY NOT NULL,
	`quiz_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`prompt` text NOT NULL,
	`points` real NOT NULL,
	`definition` text NOT NULL,
	`feedback` text NOT NULL,
	`explanation` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `questions_quiz_position_idx` ON `questions` (`quiz_id`,`position`);--> statement-breakpoint
CREATE TABLE `quiz_stats` (
	`quiz_id` text PRIMARY KEY NOT NULL,
	`total_attempts` integer DEFAULT 0 NOT NULL,
	`unique_users` integer DEFAULT 0 NOT NULL,
	`mean_score` real DEFAULT 0 NOT NULL,
	`m2_score` real DEFAULT 0 NOT NULL,
	`min_score` real,
	`max_score` real,
	`buckets` text DEFAULT '[0,0,0,0,0,0,0,0,0,0]' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quiz_user_stats` (
	`quiz_id` text NOT NULL,
	`user_id` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`quiz_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `quizzes` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`settings` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`quiz_id` text NOT NULL,
	`user_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`answers` text NOT NULL,
	`score` real,
	`points_earned` real,
	`points_possible` real,
	`feedback` text,
	`results` text,
	`grade_token` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`graded_at` text,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_quiz_user_attempt_idx` ON `submissions` (`quiz_id`,`user_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `submissions_quiz_idx` ON `submissions` (`quiz_id`,`id`);--> statement-breakpoint
CREATE INDEX `submissions_user_idx` ON `submissions` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `user_stats` (
	`user_id` text PRIMARY KEY NOT NULL,
	`total_attempts` integer DEFAULT 0 NOT NULL,
	`quizzes_taken` integer DEFAULT 0 NOT NULL,
	`mean_score` real DEFAULT 0 NOT NULL,
	`min_score` real,
	`max_score` real,
	`last_graded_at` text
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`email` text,
	`email_normalized` text,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_normalized_idx` ON `users` (`email_normalized`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`,`id`);