CREATE TABLE `processor_customers` (
	`program_id` integer NOT NULL,
	`processor_customer` text NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`program_id`, `processor_customer`),
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `programs` ADD `minimum_payouts` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `programs` ADD `currencies` text DEFAULT '["USD","EUR","VND"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `programs` ADD `paddle_webhook_secret` text;--> statement-breakpoint
ALTER TABLE `programs` ADD `lemonsqueezy_webhook_secret` text;--> statement-breakpoint
ALTER TABLE `programs` ADD `polar_webhook_secret` text;