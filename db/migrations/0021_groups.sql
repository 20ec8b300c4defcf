CREATE TABLE `partner_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`name` text NOT NULL,
	`commission_type` text,
	`commission_rate` real,
	`recurring_months` integer,
	`holding_period_days` integer,
	`discount_coupon_id` text,
	`discount_description` text,
	`partner_signup` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `partner_groups_program` ON `partner_groups` (`program_id`);--> statement-breakpoint
ALTER TABLE `partners` ADD `group_id` integer REFERENCES partner_groups(id);--> statement-breakpoint
CREATE INDEX `partners_group` ON `partners` (`group_id`);