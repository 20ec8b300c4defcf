CREATE TABLE `daily_counts` (
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`day` integer NOT NULL,
	`test_mode` integer NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`leads` integer DEFAULT 0 NOT NULL,
	`customers` integer DEFAULT 0 NOT NULL,
	`sales` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`program_id`, `partner_id`, `day`, `test_mode`)
);
--> statement-breakpoint
CREATE TABLE `daily_money` (
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`day` integer NOT NULL,
	`currency` text NOT NULL,
	`test_mode` integer NOT NULL,
	`revenue_cents` integer DEFAULT 0 NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`commission_cents` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`program_id`, `partner_id`, `day`, `currency`, `test_mode`)
);
--> statement-breakpoint
CREATE TABLE `sign_in_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`account_id` integer,
	`partner_id` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sign_in_links_token_hash_unique` ON `sign_in_links` (`token_hash`);--> statement-breakpoint
CREATE TABLE `web_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`account_id` integer,
	`partner_id` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_sessions_token_hash_unique` ON `web_sessions` (`token_hash`);