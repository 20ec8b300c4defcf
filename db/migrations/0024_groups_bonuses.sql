CREATE TABLE `partner_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`name` text NOT NULL,
	`commission_type` text,
	`commission_rate` real,
	`recurring_months` integer,
	`holding_period_days` integer,
	`discount_coupon_id` text,
	`discount_description` text,
	`partner_signup` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `partner_groups_program` ON `partner_groups` (`program_id`);--> statement-breakpoint
-- commissions is made anew (SQLite cannot drop a NOT NULL): a bonus is a ledger entry without a
-- sale (docs/decisions.md, Groups: bonuses) that keeps the owner's words, and every entry keeps
-- when it is due (due_at), fixed when it is booked ("terms are fixed when an entry is booked"):
-- the entries so far by their program's holding period of today. The table's triggers go with
-- the old one and are written again below, as 0005 and 0018 made them, with the day of an open
-- ledger_balances row now the day it is due (it was the day it was booked); the derived
-- ledger_balances is filled again to match. A bonus's NULL sale_id pairs it with nothing.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_commissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`program_id` integer NOT NULL,
	`sale_id` integer,
	`partner_id` integer NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`test_mode` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`chain_seq` integer,
	`chain_hash` text,
	`flags` text DEFAULT '[]' NOT NULL,
	`review` text,
	`reviewed_at` integer,
	`review_reason` text,
	`description` text,
	`due_at` integer,
	FOREIGN KEY (`program_id`) REFERENCES `programs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_commissions`("id", "program_id", "sale_id", "partner_id", "kind", "amount_cents", "currency", "test_mode", "created_at", "chain_seq", "chain_hash", "flags", "review", "reviewed_at", "review_reason", "due_at") SELECT "id", "program_id", "sale_id", "partner_id", "kind", "amount_cents", "currency", "test_mode", "created_at", "chain_seq", "chain_hash", "flags", "review", "reviewed_at", "review_reason", CASE WHEN "kind" = 'reversal' THEN "created_at" ELSE "created_at" + (SELECT p."holding_period_days" FROM "programs" p WHERE p."id" = "commissions"."program_id") * 86400000 END FROM `commissions`;--> statement-breakpoint
DROP TABLE `commissions`;--> statement-breakpoint
ALTER TABLE `__new_commissions` RENAME TO `commissions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `commissions_sale_kind` ON `commissions` (`sale_id`,`kind`);--> statement-breakpoint
CREATE INDEX `commissions_held` ON `commissions` (`program_id`,`id`) WHERE review = 'held';--> statement-breakpoint
CREATE INDEX `commissions_program` ON `commissions` (`program_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `commissions_program_id` ON `commissions` (`program_id`,`id`);--> statement-breakpoint
CREATE INDEX `commissions_partner` ON `commissions` (`partner_id`,`id`);--> statement-breakpoint
CREATE INDEX `commissions_program_due` ON `commissions` (`program_id`,`due_at`);--> statement-breakpoint
ALTER TABLE `partners` ADD `group_id` integer REFERENCES partner_groups(id);--> statement-breakpoint
CREATE INDEX `partners_group` ON `partners` (`group_id`);--> statement-breakpoint
-- An entry written without due_at (by code that predates it) gets its program's holding period of now.
CREATE TRIGGER `commission_due_at` AFTER INSERT ON `commissions` WHEN NEW.due_at IS NULL BEGIN
  UPDATE commissions SET due_at = coalesce(NEW.due_at, NEW.created_at + CASE WHEN NEW.kind = 'reversal' THEN 0 ELSE (SELECT p.holding_period_days FROM programs p WHERE p.id = NEW.program_id) * 86400000 END) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_commission` AFTER INSERT ON `commissions` BEGIN
  INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, commission_cents)
  VALUES (NEW.program_id, NEW.partner_id, NEW.created_at / 86400000, NEW.currency, NEW.test_mode, NEW.amount_cents)
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET commission_cents = commission_cents + excluded.commission_cents;
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_balance_commission` AFTER INSERT ON `commissions` WHEN NEW.test_mode = 0 BEGIN
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, h, CASE WHEN p = '' AND q <> '' AND h = 0 THEN d / 86400000 ELSE -1 END, amount_cents, 1 FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, coalesce(NEW.due_at, NEW.created_at + CASE WHEN NEW.kind = 'reversal' THEN 0 ELSE (SELECT p.holding_period_days FROM programs p WHERE p.id = NEW.program_id) * 86400000 END) AS d, c.amount_cents, '' AS p, c.review IS 'held' AS h,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.id = NEW.id
  ) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, CASE WHEN sign < 0 THEN 'none' ELSE '' END, h,
    CASE WHEN p = '' AND sign < 0 AND h = 0 THEN due_at / 86400000 ELSE -1 END, sign * amount_cents, sign FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.due_at, c.amount_cents, c.review IS 'held' AS h,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p
    FROM commissions c WHERE c.sale_id = NEW.sale_id AND c.kind <> NEW.kind AND c.test_mode = 0 LIMIT 1
  ) JOIN (SELECT -1 AS sign UNION ALL SELECT 1) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  DELETE FROM ledger_balances WHERE entries = 0 AND program_id = NEW.program_id AND partner_id = NEW.partner_id AND currency = NEW.currency
    AND kind <> NEW.kind AND pair = 'none';
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_balance_review` AFTER UPDATE OF review ON `commissions`
  WHEN NEW.test_mode = 0 AND (OLD.review IS 'held') <> (NEW.review IS 'held') BEGIN
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT NEW.program_id, NEW.partner_id, NEW.currency, NEW.kind, '', q, h,
    CASE WHEN h = 0 AND q <> '' THEN NEW.due_at / 86400000 ELSE -1 END, sign * NEW.amount_cents, sign FROM (
    SELECT coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
      FROM commissions o WHERE o.sale_id = NEW.sale_id AND o.kind <> NEW.kind), 'none') AS q
  ) JOIN (SELECT -1 AS sign, OLD.review IS 'held' AS h UNION ALL SELECT 1, NEW.review IS 'held') WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, held, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  DELETE FROM ledger_balances WHERE entries = 0 AND program_id = NEW.program_id AND partner_id = NEW.partner_id AND currency = NEW.currency;
END;
--> statement-breakpoint
DELETE FROM ledger_balances;
--> statement-breakpoint
INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, held, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, h, CASE WHEN p = '' AND q <> '' AND h = 0 THEN due_at / 86400000 ELSE -1 END, sum(amount_cents), count(*) FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.due_at, c.amount_cents, c.review IS 'held' AS h,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.test_mode = 0
  ) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1;
