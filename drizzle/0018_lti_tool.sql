CREATE TABLE `lti_login_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`nonce_hash` text NOT NULL,
	`binding_hash` text NOT NULL,
	`target_link_uri` text NOT NULL,
	`expires_at` text NOT NULL,
	`claim` text
);
--> statement-breakpoint
CREATE INDEX `lti_login_states_expiry_idx` ON `lti_login_states` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lti_tickets` (
	`ticket_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`platform_id` text NOT NULL,
	`payload` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE INDEX `lti_tickets_expiry_idx` ON `lti_tickets` (`expires_at`);--> statement-breakpoint
ALTER TABLE `lti_platforms` ADD `auth_login_url` text;--> statement-breakpoint
ALTER TABLE `lti_platforms` ADD `frame_origins` text DEFAULT '[]' NOT NULL;