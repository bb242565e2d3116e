ALTER TABLE `jobs` ADD `error_code` text;--> statement-breakpoint
ALTER TABLE `questions` ADD `title` text;--> statement-breakpoint
ALTER TABLE `questions` ADD `tags` text DEFAULT '[]' NOT NULL;