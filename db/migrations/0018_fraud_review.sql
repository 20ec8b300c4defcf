CREATE TABLE `partner_ips` (
	`partner_id` integer NOT NULL,
	`ip_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `ip_hash`),
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- ledger_balances gains `held` (src/db/schema.ts): a commission held for review is in its own rows
-- (day -1, never open), so that the balances show it held and no payout run counts it. The table is
-- derived, so it is made anew and filled again (every entry so far is held = 0), and the trigger that
-- adds new entries is written again with the column. A second trigger moves an entry between its
-- held and reviewed rows when its review changes (approve, reject).
DROP TRIGGER `ledger_balance_commission`;--> statement-breakpoint
DROP TABLE `ledger_balances`;--> statement-breakpoint
CREATE TABLE `ledger_balances` (
	`program_id` integer NOT NULL,
	`partner_id` integer NOT NULL,
	`currency` text NOT NULL,
	`kind` text NOT NULL,
	`payout` text NOT NULL,
	`pair` text NOT NULL,
	`held` integer NOT NULL,
	`day` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`entries` integer NOT NULL,
	PRIMARY KEY(`program_id`, `partner_id`, `currency`, `kind`, `payout`, `pair`, `held`, `day`)
);
--> statement-breakpoint
ALTER TABLE `clicks` ADD `signals` integer;--> statement-breakpoint
ALTER TABLE `commissions` ADD `flags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `commissions` ADD `review` text;--> statement-breakpoint
ALTER TABLE `commissions` ADD `reviewed_at` integer;--> statement-breakpoint
ALTER TABLE `commissions` ADD `review_reason` text;--> statement-breakpoint
CREATE INDEX `commissions_held` ON `commissions` (`program_id`,`id`) WHERE review = 'held';--> statement-breakpoint
ALTER TABLE `customers` ADD `lead_ip_hash` text;--> statement-breakpoint
ALTER TABLE `daily_counts` ADD `unique_clicks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `programs` ADD `fraud_review` text DEFAULT 'hold' NOT NULL;--> statement-breakpoint
INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, 0, CASE WHEN p = '' AND q <> '' THEN created_at / 86400000 ELSE -1 END, sum(amount_cents), count(*) FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.test_mode = 0
  ) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1;
--> statement-breakpoint
-- As 0009's, with `held`: a new entry joins its row; the entry it pairs with (a commission's reversal,
-- or the commission of a reversal) moves from its "no pair" row to its "a pair in no payout" one. A
-- held entry's rows carry day -1: it is never open.
CREATE TRIGGER `ledger_balance_commission` AFTER INSERT ON `commissions` WHEN NEW.test_mode = 0 BEGIN
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, h, CASE WHEN p = '' AND q <> '' AND h = 0 THEN created_at / 86400000 ELSE -1 END, amount_cents, 1 FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents, '' AS p, c.review IS 'held' AS h,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.id = NEW.id
  ) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, CASE WHEN sign < 0 THEN 'none' ELSE '' END, h,
    CASE WHEN p = '' AND sign < 0 AND h = 0 THEN created_at / 86400000 ELSE -1 END, sign * amount_cents, sign FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents, c.review IS 'held' AS h,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p
    FROM commissions c WHERE c.sale_id = NEW.sale_id AND c.kind <> NEW.kind AND c.test_mode = 0 LIMIT 1
  ) JOIN (SELECT -1 AS sign UNION ALL SELECT 1) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  DELETE FROM ledger_balances WHERE entries = 0 AND program_id = NEW.program_id AND partner_id = NEW.partner_id AND currency = NEW.currency
    AND kind <> NEW.kind AND pair = 'none';
END;
--> statement-breakpoint
-- A held commission is reviewed (approved or rejected) before anything else changes it: it is in no
-- payout and, until the rejection's reversal is written just after, has no pair. It leaves its held
-- row for the row of an open entry booked on its day.
CREATE TRIGGER `ledger_balance_review` AFTER UPDATE OF review ON `commissions`
  WHEN NEW.test_mode = 0 AND (OLD.review IS 'held') <> (NEW.review IS 'held') BEGIN
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT NEW.program_id, NEW.partner_id, NEW.currency, NEW.kind, '', q, h,
    CASE WHEN h = 0 AND q <> '' THEN NEW.created_at / 86400000 ELSE -1 END, sign * NEW.amount_cents, sign FROM (
    SELECT coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
      FROM commissions o WHERE o.sale_id = NEW.sale_id AND o.kind <> NEW.kind), 'none') AS q
  ) JOIN (SELECT -1 AS sign, OLD.review IS 'held' AS h UNION ALL SELECT 1, NEW.review IS 'held') WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  DELETE FROM ledger_balances WHERE entries = 0 AND program_id = NEW.program_id AND partner_id = NEW.partner_id AND currency = NEW.currency;
END;
