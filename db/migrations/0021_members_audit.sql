CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`account_id` integer NOT NULL,
	`program_id` integer,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`object_type` text NOT NULL,
	`object_id` text NOT NULL,
	`ip` text,
	`details` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_program` ON `audit_log` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_account` ON `audit_log` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`email` text NOT NULL,
	`email_key` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	`removed_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_account_email` ON `members` (`account_id`,`email_key`) WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX `members_email_key` ON `members` (`email_key`);--> statement-breakpoint
ALTER TABLE `sign_in_links` ADD `member_id` integer REFERENCES members(id);--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `member_id` integer REFERENCES members(id);--> statement-breakpoint
INSERT INTO `members` (`account_id`, `email`, `email_key`, `role`, `created_at`) SELECT `id`, `email`, COALESCE(`email_key`, lower(`email`)), 'owner', `created_at` FROM `accounts`;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
