// The commission ledger and the payouts made from it.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { FraudFlag } from '../../domain/fraud.ts'
import { PAYOUT_RAILS, PAYOUT_STATUSES, type SendItem } from '../../domain/payout-method.ts'
import { LEDGER_KINDS } from '../../domain/payout.ts'
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
    /** The sale of a commission or reversal; null for a bonus (docs/decisions.md, Groups: bonuses). */
    saleId: integer('sale_id').references(() => sales.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
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
    /** A bonus's words, as the owner wrote them ("Launch week top referrer"); null for the other kinds. */
    description: text('description'),
    /**
     * When the entry is due (epoch ms), fixed when it is booked: the holding period of its terms
     * then (partner → group → program), at once for a reversal. A row inserted without it gets the
     * program's from the trigger commission_due_at (migration 0024).
     */
    dueAt: integer('due_at'),
  },
  (t) => [
    uniqueIndex('commissions_sale_kind').on(t.saleId, t.kind),
    // The Review page and its count on the tabs: the held entries of a program, a short range.
    index('commissions_held').on(t.programId, t.id).where(sql`review = 'held'`),
    index('commissions_program').on(t.programId, t.createdAt),
    index('commissions_program_id').on(t.programId, t.id),
    // A partner's own ledger (balances, the partner portal) without reading the whole program's.
    index('commissions_partner').on(t.partnerId, t.id),
    // The payout pages split the entries due on the current day one by one (payout-store.ts ledgerGroups).
    index('commissions_program_due').on(t.programId, t.dueAt),
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
    /** docs/payouts.md: pending, processing (being sent by a rail), paid, failed (the rail refused it), canceled. */
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('pending'),
    reference: text('reference'),
    createdAt: createdAt(),
    paidAt: integer('paid_at'),
    /** When it was canceled, or failed: its entries were freed then (a failed payout's chain link is a cancellation). */
    canceledAt: integer('canceled_at'),
    /** The send that carries it to a rail (payout_sends), and why the rail refused it. */
    sendId: integer('send_id'),
    failureReason: text('failure_reason'),
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
    index('payouts_send').on(t.sendId).where(sql`send_id IS NOT NULL`),
    uniqueIndex('payouts_source').on(t.programId, t.source, t.sourceId).where(sql`source IS NOT NULL`),
  ],
)

/**
 * One request to a payout rail (src/payouts/send.ts, docs/payouts.md): recorded in the unit that
 * makes its payouts `processing`, before anything leaves, with the idempotency key it is sent
 * with, every time, after any crash. `state`: `sending` until the rail has it, `polling` while
 * its items are not final (PayPal), `done`. `provider_id` is the PayPal batch.
 */
export const payoutSends = sqliteTable(
  'payout_sends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    rail: text('rail', { enum: PAYOUT_RAILS }).notNull(),
    currency: text('currency').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    state: text('state', { enum: ['sending', 'polling', 'done'] })
      .notNull()
      .default('sending'),
    providerId: text('provider_id'),
    /** What is sent, frozen when recorded so that every resend carries the same body: payout, receiver, amount. */
    items: text('items', { mode: 'json' }).$type<SendItem[]>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payout_sends_key').on(t.rail, t.idempotencyKey),
    index('payout_sends_open').on(t.state, t.nextAttemptAt).where(sql`state <> 'done'`),
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
 * or in a payout, and not held for review, is open (pending or due by time): its row carries the UTC day it is due
 * (due_at / 86400000, migration 0024; the day it was booked before), so that a read splits pending from due without reading entries; every
 * other row has day -1. Kept in the ledger writes' own transactions: a new entry by the trigger of
 * migration 0009_ledger_balance_triggers (written again by 0018 and 0024), payout runs, payments and cancels by payout-store.ts.
 */
export const ledgerBalances = sqliteTable(
  'ledger_balances',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
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

/**
 * The Stripe accounts "Connect with Stripe" made for a partner (src/http/pages/connect-stripe.ts):
 * the latest is gone on with until the partner finishes, and they count toward the few a partner
 * may make a day (docs/payouts.md, Stripe).
 */
export const partnerStripeAccounts = sqliteTable(
  'partner_stripe_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('partner_stripe_accounts_partner').on(t.partnerId, t.createdAt)],
)

export type Commission = typeof commissions.$inferSelect
export type Payout = typeof payouts.$inferSelect
export type PayoutSend = typeof payoutSends.$inferSelect
