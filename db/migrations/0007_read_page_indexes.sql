CREATE INDEX `commissions_program_id` ON `commissions` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `customers_program` ON `customers` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `processor_events_program_id` ON `processor_events` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `sales_program_id` ON `sales` (`program_id`,`id`);