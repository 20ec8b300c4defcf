DROP INDEX `commissions_program`;--> statement-breakpoint
CREATE INDEX `commissions_program` ON `commissions` (`program_id`,`id`);--> statement-breakpoint
DROP INDEX `processor_events_program`;--> statement-breakpoint
CREATE INDEX `processor_events_program` ON `processor_events` (`program_id`,`id`);--> statement-breakpoint
DROP INDEX `sales_program`;--> statement-breakpoint
CREATE INDEX `sales_program` ON `sales` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `customers_program` ON `customers` (`program_id`,`id`);