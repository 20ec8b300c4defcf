// The commission ledger and the payouts made from it.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { FraudFlag } from '../../domain/fraud.ts'
import { bool, createdAt } from './shared.ts'
import { partners, programs } from './programs.ts'
import { sales } from './tracking.ts'

/** A commission's review state (docs/decisions.md, Fraud signals and review). */
export const COMMISSION_REVIEWS = ['held', 'approved', 'rejected'] as const

/** The commission ledger: a reversal is a negative entry, never a deleted row. */
export const commissions = sqliteTable(
  'commissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    kind: text('kind', { enum: ['commission', 'reversal'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    testMode: bool('test_mode').notNull().default(false),
    createdAt: createdAt(),
    /** The entry's place in its partner's hash chain and its hash (docs/ledger.md); set in the unit that books it. */
    chainSeq: integer('chain_seq'),
    chainHash: text('chain_hash'),
    /** The fraud signals the commission raised when it was booked (domain/fraud.ts); a reversal has none. */
    flags: text('flags', { mode: 'json' }).$type<FraudFlag[]>().notNull().default(sql`'[]'`),
    /**
     * held: flagged under fraud_review `hold`, in no payout run until reviewed; approved (back on the
     * holding-period path) or rejected (a reversal entry was written) once reviewed; null otherwise.
     */
    review: text('review', { enum: COMMISSION_REVIEWS }),
    reviewedAt: integer('reviewed_at'),
    /** The reason given with a rejection. */
    reviewReason: text('review_reason'),
  },
  (t) => [
    uniqueIndex('commissions_sale_kind').on(t.saleId, t.kind),
    // The Review page and its count on the tabs: the held entries of a program, a short range.
    index('commissions_held').on(t.programId, t.id).where(sql`review = 'held'`),
    index('commissions_program').on(t.programId, t.createdAt),
    index('commissions_program_id').on(t.programId, t.id),
    // A partner's own ledger (balances, the partner portal) without reading the whole program's.
    index('commissions_partner').on(t.partnerId, t.id),
  ],
)

/** A payout to one partner in one currency: the net of the ledger entries it holds. */
export const payouts = sqliteTable(
  'payouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    currency: text('currency').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** How many ledger entries (commissions and reversals) it holds. */
    commissions: integer('commissions').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'canceled'] })
      .notNull()
      .default('pending'),
    reference: text('reference'),
    createdAt: createdAt(),
    paidAt: integer('paid_at'),
    canceledAt: integer('canceled_at'),
    /** The payout's link in its partner's hash chain, and its cancellation's (docs/ledger.md). */
    chainSeq: integer('chain_seq'),
    chainHash: text('chain_hash'),
    cancelSeq: integer('cancel_seq'),
    cancelHash: text('cancel_hash'),
    /** The tool and payout id an import brought the paid payout from; null for svc's own. */
    source: text('source'),
    sourceId: text('source_id'),
  },
  (t) => [
    index('payouts_program').on(t.programId, t.id),
    index('payouts_partner').on(t.partnerId, t.id),
    uniqueIndex('payouts_source').on(t.programId, t.source, t.sourceId).where(sql`source IS NOT NULL`),
  ],
)

/**
 * The ledger entries of each payout. `status` repeats the payout's so that the partial UNIQUE
 * index can say it: a ledger entry belongs to at most one pending or paid payout (docs/decisions.md,
 * Payouts); a canceled payout keeps its rows for the record and frees its entries.
 */
export const payoutEntries = sqliteTable(
  'payout_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    payoutId: integer('payout_id')
      .notNull()
      .references(() => payouts.id),
    ledgerEntryId: integer('ledger_entry_id')
      .notNull()
      .references(() => commissions.id),
    status: text('status', { enum: ['pending', 'paid', 'canceled'] })
      .notNull()
      .default('pending'),
  },
  (t) => [
    uniqueIndex('payout_entries_once').on(t.ledgerEntryId).where(sql`status <> 'canceled'`),
    index('payout_entries_payout').on(t.payoutId),
  ],
)

/**
 * The live commission ledger added up by what decides each entry's status (domain/payout.ts
 * statusOf): payout is the entry's pending or paid payout ('' for none), pair that of the other
 * entry of its sale ('none' when there is none). Only an entry in no payout whose pair is missing
 * or in a payout, and not held for review, is open (pending or due by time): its row carries the UTC day it was booked
 * (epoch ms / 86400000), so that a read splits pending from due without reading entries; every
 * other row has day -1. Kept in the ledger writes' own transactions: a new entry by the trigger of
 * migration 0009_ledger_balance_triggers, payout runs, payments and cancels by payout-store.ts.
 */
export const ledgerBalances = sqliteTable(
  'ledger_balances',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: ['commission', 'reversal'] }).notNull(),
    payout: text('payout', { enum: ['', 'pending', 'paid'] }).notNull(),
    pair: text('pair', { enum: ['none', '', 'pending', 'paid'] }).notNull(),
    /** 1 for commissions held for review (never in a payout; their rows carry day -1), else 0. */
    held: integer('held').notNull(),
    day: integer('day').notNull(),
    amountCents: integer('amount_cents').notNull(),
    entries: integer('entries').notNull(),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.currency, t.kind, t.payout, t.pair, t.held, t.day] })],
)

export type Commission = typeof commissions.$inferSelect
export type Payout = typeof payouts.$inferSelect
