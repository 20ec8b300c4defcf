CREATE TABLE `ledger_balances` (
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`kind` text NOT NULL,
	`payout` text NOT NULL,
	`pair` text NOT NULL,
	`day` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`entries` integer NOT NULL,
	PRIMARY KEY(`program_id`, `partner_id`, `currency`, `kind`, `payout`, `pair`, `day`)
);
