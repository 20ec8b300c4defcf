DROP INDEX `webhook_events_event_id_unique`;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `endpoints` text;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `subject` integer;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `facts` text;--> statement-breakpoint
INSERT OR IGNORE INTO `settings` (`key`, `value`) SELECT 'webhook_deliveries_written', coalesce(max(`id`), 0) FROM `webhook_events`;
