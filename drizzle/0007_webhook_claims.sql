CREATE TABLE `event_redeliveries` (
	`event_id` text NOT NULL,
	`redelivery` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`event_id`, `redelivery`)
);
--> statement-breakpoint
DROP INDEX `webhook_deliveries_event_idx`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `redelivery` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Before: `pending` was a failed attempt with another to follow. Now it is only an attempt under way.
UPDATE `webhook_deliveries` SET `status` = 'failed' WHERE `status` = 'pending';--> statement-breakpoint
-- Queue redeliveries recorded some attempts several times: the first record of each stays.
DELETE FROM `webhook_deliveries` WHERE `id` NOT IN (
  SELECT min(`id`) FROM `webhook_deliveries` GROUP BY `event_id`, `endpoint_id`, `attempt`
);--> statement-breakpoint
-- Ids as §1 names them: we_… → whe_…, dlv_… → whd_… (the ULID part unchanged; old ids are still read on input).
UPDATE `webhook_endpoints` SET `id` = 'whe_' || substr(`id`, 4) WHERE `id` LIKE 'we\_%' ESCAPE '\';--> statement-breakpoint
UPDATE `webhook_deliveries` SET `id` = 'whd_' || substr(`id`, 5) WHERE `id` LIKE 'dlv\_%' ESCAPE '\';--> statement-breakpoint
UPDATE `webhook_deliveries` SET `endpoint_id` = 'whe_' || substr(`endpoint_id`, 4) WHERE `endpoint_id` LIKE 'we\_%' ESCAPE '\';--> statement-breakpoint
UPDATE `events` SET `data` = json_set(`data`, '$.object.id', 'whe_' || substr(json_extract(`data`, '$.object.id'), 4))
  WHERE `type` LIKE 'webhook\_endpoint.%' ESCAPE '\' AND json_extract(`data`, '$.object.id') LIKE 'we\_%' ESCAPE '\';--> statement-breakpoint
-- Events carry an endpoint's origin only: its path and query may hold a token of the receiver's.
UPDATE `events` SET `data` = json_set(`data`, '$.object.url', (
  SELECT CASE WHEN slash > 0 THEN substr(url, 1, scheme_end + slash) ELSE url END
  FROM (SELECT url, scheme_end, instr(substr(url, scheme_end + 2), '/') AS slash
        FROM (SELECT json_extract(`data`, '$.object.url') AS url, instr(json_extract(`data`, '$.object.url'), '//') AS scheme_end))))
  WHERE `type` LIKE 'webhook\_endpoint.%' ESCAPE '\' AND json_type(`data`, '$.object.url') = 'text';--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_attempt_idx` ON `webhook_deliveries` (`event_id`,`endpoint_id`,`redelivery`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`created_at`) WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `created_by` text;
