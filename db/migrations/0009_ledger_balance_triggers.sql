-- ledger_balances (src/db/schema.ts): a new ledger entry is added by this trigger, in the
-- write's own transaction; the entry it pairs with (a commission's reversal, or the commission
-- of a reversal) moves from the row of "no pair" to that of "a pair in no payout". Payout runs,
-- payments and cancels move their entries in bulk in the same transaction (src/db/payout-store.ts
-- moveBalances). Test-mode entries are left out, as the balances leave them out. Then filled from
-- the rows that exist.
CREATE TRIGGER `ledger_balance_commission` AFTER INSERT ON `commissions` WHEN NEW.test_mode = 0 BEGIN
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, CASE WHEN p = '' AND q <> '' THEN created_at / 86400000 ELSE -1 END, amount_cents, 1 FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents, '' AS p,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.id = NEW.id
  ) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, CASE WHEN sign < 0 THEN 'none' ELSE '' END,
    CASE WHEN p = '' AND sign < 0 THEN created_at / 86400000 ELSE -1 END, sign * amount_cents, sign FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p
    FROM commissions c WHERE c.sale_id = NEW.sale_id AND c.kind <> NEW.kind AND c.test_mode = 0 LIMIT 1
  ) JOIN (SELECT -1 AS sign UNION ALL SELECT 1) WHERE true
  ON CONFLICT (program_id, partner_id, currency, kind, payout, pair, day) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries;
  DELETE FROM ledger_balances WHERE entries = 0 AND program_id = NEW.program_id AND partner_id = NEW.partner_id AND currency = NEW.currency
    AND kind <> NEW.kind AND pair = 'none';
END;
--> statement-breakpoint
INSERT INTO ledger_balances (program_id, partner_id, currency, kind, payout, pair, day, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, p, q, CASE WHEN p = '' AND q <> '' THEN created_at / 86400000 ELSE -1 END, sum(amount_cents), count(*) FROM (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at, c.amount_cents,
      coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled'), '') AS p,
      coalesce((SELECT coalesce((SELECT pe.status FROM payout_entries pe WHERE pe.ledger_entry_id = o.id AND pe.status <> 'canceled'), '')
        FROM commissions o WHERE o.sale_id = c.sale_id AND o.kind <> c.kind), 'none') AS q
    FROM commissions c WHERE c.test_mode = 0
  ) GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1;
