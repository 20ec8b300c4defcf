CREATE TABLE `import_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`rank` integer NOT NULL,
	`at` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_rows_once` ON `import_rows` (`import_id`,`kind`,`source_id`);--> statement-breakpoint
CREATE INDEX `import_rows_order` ON `import_rows` (`import_id`,`rank`,`at`,`id`);--> statement-breakpoint
CREATE TABLE `import_skips` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`reason` text NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_skips_once` ON `import_skips` (`import_id`,`kind`,`source_id`);--> statement-breakpoint
CREATE TABLE `imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`source` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`dry_run` integer DEFAULT false NOT NULL,
	`api_key` text,
	`options` text NOT NULL,
	`phase` text DEFAULT 'read' NOT NULL,
	`cursor` text,
	`counts` text NOT NULL,
	`read_rows` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `imports_program` ON `imports` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `imports_open` ON `imports` (`status`) WHERE status IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE `coupons` ADD `source` text;--> statement-breakpoint
ALTER TABLE `coupons` ADD `source_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_source` ON `coupons` (`program_id`,`source`,`source_id`) WHERE source IS NOT NULL;--> statement-breakpoint
ALTER TABLE `partners` ADD `source` text;--> statement-breakpoint
ALTER TABLE `partners` ADD `source_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `partners_source` ON `partners` (`program_id`,`source`,`source_id`) WHERE source IS NOT NULL;--> statement-breakpoint
ALTER TABLE `programs` ADD `link_params` text DEFAULT '["aff"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `sales` ADD `source` text;--> statement-breakpoint
ALTER TABLE `sales` ADD `source_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `sales_source` ON `sales` (`program_id`,`source`,`source_id`) WHERE source IS NOT NULL;--> statement-breakpoint
ALTER TABLE `payouts` ADD `source` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `source_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_source` ON `payouts` (`program_id`,`source`,`source_id`) WHERE source IS NOT NULL;