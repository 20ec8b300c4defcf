PRAGMA foreign_keys=OFF;--> statement-breakpoint
-- Click ids that carry their row (src/domain/click-id.ts, issue 14): the clicks table loses
-- AUTOINCREMENT (the store assigns max + 1; no click is ever deleted) and its click_id index,
-- which becomes a partial index of the ids issued before, of other lengths than today's 28.
-- The table is rebuilt (drizzle-kit's copy), which drops the rollup trigger of 0005: the clicks
-- are counted in daily_counts by the store from now on, once per batch and key, in the batch's
-- transaction (src/db/tracking-store.ts); the copied rows were counted already. The key that
-- seals row ids is drawn here once.
CREATE TABLE `__new_clicks` (
	`id` integer PRIMARY KEY NOT NULL,
	`click_id` text NOT NULL,
	`program_id` integer NOT NULL,
	`link_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`test_mode` integer DEFAULT false NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_clicks`("id", "click_id", "program_id", "link_id", "partner_id", "test_mode", "ip", "user_agent", "created_at") SELECT "id", "click_id", "program_id", "link_id", "partner_id", "test_mode", "ip", "user_agent", "created_at" FROM `clicks`;--> statement-breakpoint
DROP TABLE `clicks`;--> statement-breakpoint
ALTER TABLE `__new_clicks` RENAME TO `clicks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `clicks_click_id_legacy` ON `clicks` (`click_id`) WHERE length(`click_id`) <> 28;--> statement-breakpoint
INSERT OR IGNORE INTO `settings` (`key`, `value`) VALUES ('click_id_key', lower(hex(randomblob(16))));
