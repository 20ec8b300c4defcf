ALTER TABLE `accounts` ADD `email_key` text;--> statement-breakpoint
CREATE INDEX `accounts_email_key` ON `accounts` (`email_key`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scope` text DEFAULT 'manage' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `name` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `email_key` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `applicant_key` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `last_applied_at` integer;--> statement-breakpoint
CREATE INDEX `partners_email_key` ON `partners` (`email_key`);--> statement-breakpoint
CREATE INDEX `partners_applicant_key` ON `partners` (`applicant_key`);--> statement-breakpoint
ALTER TABLE `programs` ADD `site_url` text;--> statement-breakpoint
UPDATE `programs` SET `site_url` = 'https://' || `domain`;
