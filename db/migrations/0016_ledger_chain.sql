ALTER TABLE `commissions` ADD `chain_seq` integer;--> statement-breakpoint
ALTER TABLE `commissions` ADD `chain_hash` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `chain_seq` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `chain_hash` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `cancel_seq` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `cancel_hash` text;