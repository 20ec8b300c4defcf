CREATE TABLE `payout_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`rail` text NOT NULL,
	`currency` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`state` text DEFAULT 'sending' NOT NULL,
	`provider_id` text,
	`items` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_sends_key` ON `payout_sends` (`rail`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `payout_sends_open` ON `payout_sends` (`state`,`next_attempt_at`) WHERE state <> 'done';--> statement-breakpoint
ALTER TABLE `payouts` ADD `send_id` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `failure_reason` text;--> statement-breakpoint
CREATE INDEX `payouts_send` ON `payouts` (`send_id`) WHERE send_id IS NOT NULL;