CREATE TABLE `oauth_access_tokens` (
	`hash` text PRIMARY KEY NOT NULL,
	`family_id` text NOT NULL,
	`client_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_access_tokens_family_idx` ON `oauth_access_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `oauth_access_tokens_client_idx` ON `oauth_access_tokens` (`client_id`);--> statement-breakpoint
CREATE TABLE `oauth_refresh_tokens` (
	`hash` text PRIMARY KEY NOT NULL,
	`family_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_refresh_tokens_family_idx` ON `oauth_refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE TABLE `oauth_token_families` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`scopes` text NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`current_hash` text NOT NULL,
	`previous_hash` text,
	`current_issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_token_families_client_idx` ON `oauth_token_families` (`client_id`);--> statement-breakpoint
CREATE TABLE `question_versions` (
	`question_id` text NOT NULL,
	`version` integer NOT NULL,
	`type` text NOT NULL,
	`points` real NOT NULL,
	`definition` text NOT NULL,
	`feedback` text NOT NULL,
	`explanation` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`question_id`, `version`)
);
--> statement-breakpoint
ALTER TABLE `questions` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `answers_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO `question_versions` (`question_id`, `version`, `type`, `points`, `definition`, `feedback`, `explanation`, `created_at`)
SELECT `id`, 1, `type`, `points`, `definition`, `feedback`, `explanation`, `created_at` FROM `questions`;
