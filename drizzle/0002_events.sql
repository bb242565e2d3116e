CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` text NOT NULL,
	`data` text NOT NULL,
	`previous_attributes` text,
	`user_id` text,
	`dispatched_at` text
);
--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`type`,`id`);--> statement-breakpoint
CREATE INDEX `events_user_idx` ON `events` (`user_id`);--> statement-breakpoint
CREATE INDEX `events_undispatched_idx` ON `events` (`created_at`) WHERE dispatched_at IS NULL;--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`response_status` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`next_retry_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`enabled` integer NOT NULL,
	`secret_sealed` text NOT NULL,
	`previous_secret_sealed` text,
	`previous_secret_expires_at` text,
	`failing_since` text,
	`disabled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
