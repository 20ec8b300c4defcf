PRAGMA foreign_keys=OFF;--> statement-breakpoint
-- Webhook events lose AUTOINCREMENT (issue 35): it wrote sqlite_sequence after every event of the
-- sale path. Their ids are SQLite's max + 1, never reused since no event is ever deleted, so the
-- deliveries' progress (settings.webhook_deliveries_written) still passes each event once.
CREATE TABLE `__new_webhook_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`program_id` integer NOT NULL,
	`type` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`endpoints` text,
	`subject` integer,
	`facts` text,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_webhook_events`("id", "event_id", "program_id", "type", "body", "created_at", "endpoints", "subject", "facts") SELECT "id", "event_id", "program_id", "type", "body", "created_at", "endpoints", "subject", "facts" FROM `webhook_events`;--> statement-breakpoint
DROP TABLE `webhook_events`;--> statement-breakpoint
ALTER TABLE `__new_webhook_events` RENAME TO `webhook_events`;--> statement-breakpoint
PRAGMA foreign_keys=ON;