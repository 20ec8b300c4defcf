// The dashboard's rollups, kept in the writes' own transactions.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Per program, partner (0: none), UTC day and mode: the funnel counts the dashboard shows, kept
 * by triggers on customers and sales (migration 0005) and, for clicks, by the tracking store once
 * per batch and key (migration 0012), always in the write's own transaction, so that a page never
 * counts a million rows. `day` is epoch ms / 86 400 000.
 */
export const dailyCounts = sqliteTable(
  'daily_counts',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    day: integer('day').notNull(),
    testMode: integer('test_mode').notNull(),
    clicks: integer('clicks').notNull().default(0),
    /** Clicks that were the first of their IP on their link in their hour (src/tracking/click-counts.ts). */
    uniqueClicks: integer('unique_clicks').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    customers: integer('customers').notNull().default(0),
    sales: integer('sales').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.day, t.testMode] })],
)

/** The money side of daily_counts, per currency: revenue, refunded revenue and the commission ledger's sum. */
export const dailyMoney = sqliteTable(
  'daily_money',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    day: integer('day').notNull(),
    currency: text('currency').notNull(),
    testMode: integer('test_mode').notNull(),
    revenueCents: integer('revenue_cents').notNull().default(0),
    refundedCents: integer('refunded_cents').notNull().default(0),
    commissionCents: integer('commission_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.day, t.currency, t.testMode] })],
)
