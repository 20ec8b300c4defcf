-- Rollups of the dashboard (daily_counts, daily_money), kept by triggers in the writes' own
-- transactions; then filled from the rows that exist. A day is epoch ms / 86400000 (UTC).
CREATE TRIGGER `rollup_click` AFTER INSERT ON `clicks` BEGIN
  INSERT INTO daily_counts (program_id, partner_id, day, test_mode, clicks) VALUES (NEW.program_id, NEW.partner_id, NEW.created_at / 86400000, NEW.test_mode, 1)
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET clicks = clicks + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_customer_insert` AFTER INSERT ON `customers` WHEN NEW.status <> 'provisional' BEGIN
  INSERT INTO daily_counts (program_id, partner_id, day, test_mode, leads, customers)
  VALUES (NEW.program_id, coalesce(NEW.partner_id, 0), coalesce(NEW.lead_at, NEW.converted_at, NEW.created_at) / 86400000, NEW.test_mode, 1, NEW.status = 'converted')
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET leads = leads + 1, customers = customers + excluded.customers;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_customer_lead` AFTER UPDATE OF status ON `customers` WHEN OLD.status = 'provisional' AND NEW.status <> 'provisional' BEGIN
  INSERT INTO daily_counts (program_id, partner_id, day, test_mode, leads) VALUES (NEW.program_id, coalesce(NEW.partner_id, 0), coalesce(NEW.lead_at, NEW.created_at) / 86400000, NEW.test_mode, 1)
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET leads = leads + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_customer_converted` AFTER UPDATE OF status ON `customers` WHEN OLD.status <> 'converted' AND NEW.status = 'converted' BEGIN
  INSERT INTO daily_counts (program_id, partner_id, day, test_mode, customers) VALUES (NEW.program_id, coalesce(NEW.partner_id, 0), coalesce(NEW.converted_at, NEW.lead_at, NEW.created_at) / 86400000, NEW.test_mode, 1)
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET customers = customers + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_sale` AFTER INSERT ON `sales` BEGIN
  INSERT INTO daily_counts (program_id, partner_id, day, test_mode, sales)
  VALUES (NEW.program_id, coalesce((SELECT partner_id FROM customers WHERE id = NEW.customer_id), 0), NEW.occurred_at / 86400000, NEW.test_mode, 1)
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET sales = sales + 1;
  INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, revenue_cents)
  VALUES (NEW.program_id, coalesce((SELECT partner_id FROM customers WHERE id = NEW.customer_id), 0), NEW.occurred_at / 86400000, NEW.currency, NEW.test_mode, NEW.amount_cents)
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET revenue_cents = revenue_cents + excluded.revenue_cents;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_refund` AFTER UPDATE OF status ON `sales` WHEN OLD.status = 'recorded' AND NEW.status <> 'recorded' BEGIN
  INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, refunded_cents)
  VALUES (NEW.program_id, coalesce((SELECT partner_id FROM customers WHERE id = NEW.customer_id), 0), NEW.occurred_at / 86400000, NEW.currency, NEW.test_mode, NEW.amount_cents)
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET refunded_cents = refunded_cents + excluded.refunded_cents;
END;
--> statement-breakpoint
CREATE TRIGGER `rollup_commission` AFTER INSERT ON `commissions` BEGIN
  INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, commission_cents)
  VALUES (NEW.program_id, NEW.partner_id, NEW.created_at / 86400000, NEW.currency, NEW.test_mode, NEW.amount_cents)
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET commission_cents = commission_cents + excluded.commission_cents;
END;
--> statement-breakpoint
INSERT INTO daily_counts (program_id, partner_id, day, test_mode, clicks)
  SELECT program_id, partner_id, created_at / 86400000, test_mode, count(*) FROM clicks GROUP BY 1, 2, 3, 4 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET clicks = clicks + excluded.clicks;
--> statement-breakpoint
INSERT INTO daily_counts (program_id, partner_id, day, test_mode, leads)
  SELECT program_id, coalesce(partner_id, 0), coalesce(lead_at, converted_at, created_at) / 86400000, test_mode, count(*) FROM customers WHERE status <> 'provisional' GROUP BY 1, 2, 3, 4 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET leads = leads + excluded.leads;
--> statement-breakpoint
INSERT INTO daily_counts (program_id, partner_id, day, test_mode, customers)
  SELECT program_id, coalesce(partner_id, 0), coalesce(converted_at, lead_at, created_at) / 86400000, test_mode, count(*) FROM customers WHERE status = 'converted' GROUP BY 1, 2, 3, 4 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET customers = customers + excluded.customers;
--> statement-breakpoint
INSERT INTO daily_counts (program_id, partner_id, day, test_mode, sales)
  SELECT s.program_id, coalesce(c.partner_id, 0), s.occurred_at / 86400000, s.test_mode, count(*) FROM sales s LEFT JOIN customers c ON c.id = s.customer_id GROUP BY 1, 2, 3, 4 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET sales = sales + excluded.sales;
--> statement-breakpoint
INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, revenue_cents, refunded_cents)
  SELECT s.program_id, coalesce(c.partner_id, 0), s.occurred_at / 86400000, s.currency, s.test_mode, sum(s.amount_cents), sum(CASE WHEN s.status <> 'recorded' THEN s.amount_cents ELSE 0 END)
  FROM sales s LEFT JOIN customers c ON c.id = s.customer_id GROUP BY 1, 2, 3, 4, 5 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET revenue_cents = revenue_cents + excluded.revenue_cents, refunded_cents = refunded_cents + excluded.refunded_cents;
--> statement-breakpoint
INSERT INTO daily_money (program_id, partner_id, day, currency, test_mode, commission_cents)
  SELECT program_id, partner_id, created_at / 86400000, currency, test_mode, sum(amount_cents) FROM commissions GROUP BY 1, 2, 3, 4, 5 ORDER BY 1
  ON CONFLICT (program_id, partner_id, day, currency, test_mode) DO UPDATE SET commission_cents = commission_cents + excluded.commission_cents;
