CREATE TABLE `lti_roster_members` (
	`platform_id` text NOT NULL,
	`context_id` text NOT NULL,
	`generation` text NOT NULL,
	`lti_user_id` text NOT NULL,
	`user_id` text NOT NULL,
	`roles` text NOT NULL,
	`status` text NOT NULL,
	`synced_at` text NOT NULL,
	PRIMARY KEY(`platform_id`, `context_id`, `generation`, `lti_user_id`)
);
--> statement-breakpoint
CREATE INDEX `lti_roster_members_page_idx` ON `lti_roster_members` (`platform_id`,`context_id`,`generation`,`user_id`);--> statement-breakpoint
CREATE INDEX `lti_roster_members_generation_idx` ON `lti_roster_members` (`generation`);--> statement-breakpoint
CREATE TABLE `lti_rosters` (
	`platform_id` text NOT NULL,
	`context_id` text NOT NULL,
	`generation` text NOT NULL,
	`synced_at` text NOT NULL,
	PRIMARY KEY(`platform_id`, `context_id`)
);
--> statement-breakpoint
ALTER TABLE `lti_launches` ADD `memberships_url` text;