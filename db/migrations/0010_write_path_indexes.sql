DROP INDEX `clicks_program`;--> statement-breakpoint
DROP INDEX `sales_program`;--> statement-breakpoint
DROP INDEX `sales_customer`;