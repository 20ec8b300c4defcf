ALTER TABLE `customers` ADD `clicked_at` integer;--> statement-breakpoint
CREATE INDEX `customers_key` ON `customers` (`customer_key`);