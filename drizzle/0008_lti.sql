CREATE TABLE `lti_identities` (
	`platform_id` text NOT NULL,
	`sub` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`platform_id`, `sub`)
);
--> statement-breakpoint
CREATE INDEX `lti_identities_user_idx` ON `lti_identities` (`user_id`);--> statement-breakpoint
CREATE TABLE `lti_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`public_jwk` text NOT NULL,
	`private_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	`listed_until` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_keys_current_idx` ON `lti_keys` (`status`) WHERE status = 'current';--> statement-breakpoint
CREATE TABLE `lti_launches` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`user_id` text NOT NULL,
	`sub` text NOT NULL,
	`deployment_id` text NOT NULL,
	`quiz_id` text,
	`roles` text NOT NULL,
	`context` text,
	`resource_link` text NOT NULL,
	`lineitem` text,
	`ags_scopes` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `lti_links` (
	`platform_id` text NOT NULL,
	`resource_link_id` text NOT NULL,
	`quiz_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`platform_id`, `resource_link_id`)
);
--> statement-breakpoint
CREATE TABLE `lti_nonces` (
	`platform_id` text NOT NULL,
	`nonce_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`platform_id`, `nonce_hash`)
);
--> statement-breakpoint
CREATE INDEX `lti_nonces_expiry_idx` ON `lti_nonces` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lti_passbacks` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`lineitem` text NOT NULL,
	`user_id` text NOT NULL,
	`quiz_id` text NOT NULL,
	`lti_user_id` text NOT NULL,
	`submission_id` text NOT NULL,
	`score_given` real,
	`score_maximum` real,
	`grading_progress` text NOT NULL,
	`score_timestamp` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_response_status` integer,
	`last_error` text,
	`next_retry_at` text,
	`lease_token` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_passbacks_target_idx` ON `lti_passbacks` (`platform_id`,`lineitem`,`user_id`);--> statement-breakpoint
CREATE INDEX `lti_passbacks_quiz_idx` ON `lti_passbacks` (`quiz_id`,`id`);--> statement-breakpoint
CREATE INDEX `lti_passbacks_user_idx` ON `lti_passbacks` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `lti_passbacks_status_idx` ON `lti_passbacks` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `lti_passbacks_leased_idx` ON `lti_passbacks` (`platform_id`,`lease_until`) WHERE lease_until IS NOT NULL;--> statement-breakpoint
CREATE TABLE `lti_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`deployment_ids` text NOT NULL,
	`auth_token_url` text NOT NULL,
	`jwks_url` text NOT NULL,
	`audience` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_platforms_issuer_client_idx` ON `lti_platforms` (`issuer`,`client_id`);--> statement-breakpoint
CREATE TABLE `lti_submissions` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`launch_id` text NOT NULL,
	`platform_id` text NOT NULL,
	`lineitem` text NOT NULL,
	`quiz_id` text NOT NULL,
	`user_id` text NOT NULL,
	`lti_user_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lti_submissions_quiz_user_idx` ON `lti_submissions` (`quiz_id`,`user_id`);