CREATE TABLE `payout_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payout_id` integer NOT NULL,
	`ledger_entry_id` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ledger_entry_id`) REFERENCES `commissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_entries_once` ON `payout_entries` (`ledger_entry_id`) WHERE status <> 'canceled';--> statement-breakpoint
CREATE INDEX `payout_entries_payout` ON `payout_entries` (`payout_id`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`commissions` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reference` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	`canceled_at` integer,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payouts_program` ON `payouts` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `payouts_partner` ON `payouts` (`partner_id`,`id`);--> statement-breakpoint
ALTER TABLE `programs` ADD `holding_period_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `programs` ADD `minimum_payout` real DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `commissions_partner` ON `commissions` (`partner_id`,`id`);