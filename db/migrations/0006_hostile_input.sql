CREATE TABLE `used_id_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_id_tokens_expiry` ON `used_id_tokens` (`expires_at`);--> statement-breakpoint
ALTER TABLE `cli_sessions` ADD `client_ip` text;--> statement-breakpoint
CREATE INDEX `cli_sessions_client_ip` ON `cli_sessions` (`client_ip`,`created_at`);