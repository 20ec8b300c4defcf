ALTER TABLE `partners` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE `partners` ADD `commission_type` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `commission_rate` real;--> statement-breakpoint
ALTER TABLE `partners` ADD `recurring_months` integer;--> statement-breakpoint
ALTER TABLE `partners` ADD `payout_method` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `payout_details` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `website` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `promotion` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `wished_short_link` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `deleted_at` integer;--> statement-breakpoint
ALTER TABLE `programs` ADD `recurring_months` integer;--> statement-breakpoint
ALTER TABLE `programs` ADD `partner_signup` text DEFAULT 'off' NOT NULL;