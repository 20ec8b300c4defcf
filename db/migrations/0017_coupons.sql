CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`code` text NOT NULL,
	`code_key` text NOT NULL,
	`stripe_promotion_code` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_program_code` ON `coupons` (`program_id`,`code_key`);--> statement-breakpoint
CREATE INDEX `coupons_program_promotion` ON `coupons` (`program_id`,`stripe_promotion_code`);--> statement-breakpoint
CREATE INDEX `coupons_partner` ON `coupons` (`partner_id`);