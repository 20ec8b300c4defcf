DROP INDEX `webhook_deliveries_due`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending` ON `webhook_deliveries` (`endpoint_id`,`next_attempt_at`) WHERE status = 'pending';