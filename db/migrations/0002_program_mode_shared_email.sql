DROP INDEX `accounts_email_unique`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_programs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`advertiser_id` integer NOT NULL,
	`name` text NOT NULL,
	`domain` text NOT NULL,
	`commission_type` text NOT NULL,
	`commission_rate` real NOT NULL,
	`lead_auth` text DEFAULT 'server_required' NOT NULL,
	`attribution_window_days` integer DEFAULT 60 NOT NULL,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`livemode` integer,
	`stripe_account_id` text,
	`stripe_webhook_secrets` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`advertiser_id`) REFERENCES `advertisers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_programs`("id", "advertiser_id", "name", "domain", "commission_type", "commission_rate", "lead_auth", "attribution_window_days", "allowed_origins", "livemode", "stripe_account_id", "stripe_webhook_secrets", "created_at") SELECT "id", "advertiser_id", "name", "domain", "commission_type", "commission_rate", "lead_auth", "attribution_window_days", "allowed_origins", "livemode", "stripe_account_id", "stripe_webhook_secrets", "created_at" FROM `programs`;--> statement-breakpoint
DROP TABLE `programs`;--> statement-breakpoint
ALTER TABLE `__new_programs` RENAME TO `programs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `programs_stripe_account_id_unique` ON `programs` (`stripe_account_id`);