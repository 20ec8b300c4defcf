import type { ChainStore } from './chain-store.ts'
import { and, desc, eq, gte, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { LedgerFacts, LedgerGroup, PayoutState, PlannedPayout } from '../domain/payout.ts'
import type { Connection } from './open.ts'
import { commissions, ledgerBalances, partners, payoutEntries, payouts, programs, type Payout } from './schema.ts'

export type PayoutStatus = Payout['status']

const DAY_MS = 86_400_000

/** A ledger entry with what the status rule needs (domain/payout.ts, LedgerFacts). */
export interface LedgerRow extends LedgerFacts {
  id: number
  partnerId: number
  amountCents: number
  currency: string
  testMode: boolean
}

export type PayoutEntry = {
  commissionId: number
  kind: 'commission' | 'reversal'
  amountCents: number
  createdAt: number
}

export interface CsvPayout extends Payout {
  partnerName: string | null
  partnerEmail: string | null
  /** The partner's payout details as they wrote them in the portal (paypal or bank). */
  payoutMethod: string | null
  payoutDetails: string | null
}

export type PayoutChange = { kind: 'ok'; payout: Payout } | { kind: 'not_found' } | { kind: 'conflict'; payout: Payout }

const pair = alias(commissions, 'pair')
const entryPayout = alias(payoutEntries, 'entry_payout')
const pairPayout = alias(payoutEntries, 'pair_payout')
const isHeld = sql<boolean>`${commissions.review} is 'held'`.mapWith(Boolean)
const notHeld = sql`${commissions.review} is not 'held'`
// The partial UNIQUE index payout_entries_once answers this lookup: its WHERE is repeated here.
const activePayoutOf = (entryId: SQLiteColumn) =>
  sql<PayoutState>`(select pe.status from payout_entries pe where pe.ledger_entry_id = ${entryId} and pe.status <> 'canceled')`

const BALANCE_KEY = 'program_id, partner_id, currency, kind, payout, pair, held, day'
/**
 * Keeps ledger_balances (schema.ts) when the entries of one payout (?1) have changed payout state from ?2 to ?3
 * ('' for none: '' to 'pending' in a run, 'pending' to 'paid' or '' when it is paid or canceled). Each entry
 * leaves the row of its old payout state for that of its new one; so does the entry it pairs with, whose pair
 * state changes. The entry and its pair are never in the same payout (a run pays entries due, and an entry is
 * due only when its pair is in a payout or missing), so the pair's own payout state is read as it is. Neither
 * is held for review (a held commission is in no payout, and its reversal nets with it), so both are in rows
 * of held = 0. Both sides are added up by row before they are written. (A new ledger entry is added by the trigger of migration 0009.)
 */
const MOVE_BALANCES = `WITH facts AS MATERIALIZED (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.created_at / 86400000 AS day,
      CASE WHEN o.id IS NULL THEN 'none' ELSE coalesce(op.status, '') END AS pair, sum(c.amount_cents) AS amount_cents, count(*) AS n,
      o.partner_id AS o_partner_id, o.currency AS o_currency, o.kind AS o_kind, o.created_at / 86400000 AS o_day, o.test_mode AS o_test,
      coalesce(op.status, '') AS o_payout, sum(o.amount_cents) AS o_amount_cents, count(o.id) AS o_n
    FROM payout_entries m JOIN commissions c ON c.id = m.ledger_entry_id
      LEFT JOIN commissions o ON o.sale_id = c.sale_id AND o.kind <> c.kind
      LEFT JOIN payout_entries op ON op.ledger_entry_id = o.id AND op.status <> 'canceled'
    WHERE m.payout_id = ?1 AND c.test_mode = 0 GROUP BY 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14),
  sides AS (
    SELECT program_id, partner_id, currency, kind, day, -amount_cents AS amount_cents, -n AS n, ?2 AS payout, pair FROM facts
    UNION ALL SELECT program_id, partner_id, currency, kind, day, amount_cents, n, ?3, pair FROM facts
    UNION ALL SELECT program_id, o_partner_id, o_currency, o_kind, o_day, -o_amount_cents, -o_n, o_payout, ?2 FROM facts WHERE o_n > 0 AND o_test = 0
    UNION ALL SELECT program_id, o_partner_id, o_currency, o_kind, o_day, o_amount_cents, o_n, o_payout, ?3 FROM facts WHERE o_n > 0 AND o_test = 0)
INSERT INTO ledger_balances (${BALANCE_KEY}, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, payout, pair, 0, CASE WHEN payout = '' AND pair <> '' THEN day ELSE -1 END,
    sum(amount_cents), sum(n) FROM sides WHERE true GROUP BY 1, 2, 3, 4, 5, 6, 8 HAVING sum(n) <> 0 OR sum(amount_cents) <> 0
  ON CONFLICT (${BALANCE_KEY}) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries`
// Only the payout's partner's rows: a payout moves its partner's entries and their pairs (the same
// sales', booked for the same partner). Scoped by program alone, each payout read every row of the
// program's balances, and an import of 10,000 paid payouts spent minutes here (issue 38).
const DROP_EMPTY_BALANCES =
  'DELETE FROM ledger_balances WHERE entries = 0 AND (program_id, partner_id) = (SELECT program_id, partner_id FROM payouts WHERE id = ?)'

/** Payout runs, payouts and the ledger facts behind commission statuses; writes run inside a writer unit. */
export class PayoutStore {
  private readonly insertEntry
  private readonly moveBalances
  constructor(
    private readonly connection: Connection,
    private readonly chain: ChainStore,
  ) {
    // Prepared once: a first run over a large ledger inserts one row per entry.
    const p = sql.placeholder
    this.insertEntry = connection.db
      .insert(payoutEntries)
      .values({ payoutId: p('payoutId'), ledgerEntryId: p('ledgerEntryId'), status: 'pending' })
      .prepare()
    const move = connection.client.prepare(MOVE_BALANCES)
    const dropEmpty = connection.client.prepare(DROP_EMPTY_BALANCES)
    this.moveBalances = (payoutId: number, before: '' | 'pending', after: '' | 'pending' | 'paid') => {
      move.run(payoutId, before, after)
      dropEmpty.run(payoutId)
    }
  }

  /** The program's payout terms, or null when no such program exists. */
  findTerms(programId: number): { holdingPeriodDays: number; minimumPayout: number } | null {
    const { db } = this.connection
    return (
      db
        .select({ holdingPeriodDays: programs.holdingPeriodDays, minimumPayout: programs.minimumPayout })
        .from(programs)
        .where(eq(programs.id, programId))
        .get() ?? null
    )
  }

  private ledger(where: SQL | undefined): LedgerRow[] {
    const { db } = this.connection
    return db
      .select({
        id: commissions.id,
        partnerId: commissions.partnerId,
        kind: commissions.kind,
        amountCents: commissions.amountCents,
        currency: commissions.currency,
        testMode: commissions.testMode,
        createdAt: commissions.createdAt,
        held: isHeld,
        payout: activePayoutOf(commissions.id),
        pairId: pair.id,
        pairPayout: activePayoutOf(pair.id),
      })
      .from(commissions)
      .leftJoin(pair, and(eq(pair.saleId, commissions.saleId), ne(pair.kind, commissions.kind)))
      .where(where)
      .all()
      .map(({ pairId, pairPayout, ...row }) => ({ ...row, pair: pairId === null ? null : { payout: pairPayout } }))
  }

  /**
   * The live (not test-mode) ledger entries of the program in no pending or paid payout and not
   * held for review: a run's candidates. Pairs reversed before any payout are left out here already
   * (domain/payout.ts would find them `reversed`), so that they are not read again by every later run.
   */
  unpaidLedger(programId: number): LedgerRow[] {
    return this.ledger(
      and(
        eq(commissions.programId, programId),
        eq(commissions.testMode, false),
        notHeld,
        sql`${activePayoutOf(commissions.id)} is null`,
        or(isNull(pair.id), sql`${activePayoutOf(pair.id)} is not null`),
      ),
    )
  }

  /** The given ledger entries with their payout facts (the commissions read route's statuses). */
  ledgerOf(entryIds: number[]): LedgerRow[] {
    return entryIds.length ? this.ledger(inArray(commissions.id, entryIds)) : []
  }

  /**
   * The day (days since 1970, UTC) each partner's oldest open commission not yet due was booked, per currency:
   * it becomes due `holding_period_days` after that day. `cutoffDay` is the first day not yet due.
   */
  firstPendingDays(programId: number, cutoffDay: number): { partnerId: number; currency: string; day: number }[] {
    return this.connection.db
      .select({ partnerId: ledgerBalances.partnerId, currency: ledgerBalances.currency, day: sql<number>`min(${ledgerBalances.day})` })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.programId, programId),
          eq(ledgerBalances.kind, 'commission'),
          eq(ledgerBalances.held, 0),
          sql`${ledgerBalances.day} >= ${cutoffDay}`,
        ),
      )
      .groupBy(ledgerBalances.partnerId, ledgerBalances.currency)
      .all()
  }

  /**
   * The live ledger of a program (or of one partner, or a page of partners) added up by partner, currency, kind,
   * payout facts and dueness: what domain/payout.ts `balances` needs. `cutoffs` are domain/payout.ts `dueCutoffs`.
   * Read from ledger_balances (kept by triggers, schema.ts): its open rows carry the day they were booked, so a
   * day before a cutoff's day is due and one after it is not; only the open entries of the two cutoff days
   * themselves are read one by one (the program's created_at index), to split them exactly.
   */
  ledgerGroups(programId: number, cutoffs: { commission: number; reversal: number }, partnerId?: number | number[]): LedgerGroup[] {
    const { db } = this.connection
    const days = { commission: Math.floor(cutoffs.commission / DAY_MS), reversal: Math.floor(cutoffs.reversal / DAY_MS) }
    const cutoffDay = sql`case ${ledgerBalances.kind} when 'reversal' then ${days.reversal} else ${days.commission} end`
    const partnerWhere = (column: SQLiteColumn) =>
      partnerId === undefined
        ? undefined
        : Array.isArray(partnerId)
          ? inArray(column, partnerId.length ? partnerId : [0])
          : eq(column, partnerId)
    const due = sql<number>`${ledgerBalances.day} >= 0 and ${ledgerBalances.day} < ${cutoffDay}`
    const counted = db
      .select({
        partnerId: ledgerBalances.partnerId,
        currency: ledgerBalances.currency,
        kind: ledgerBalances.kind,
        payout: ledgerBalances.payout,
        pair: ledgerBalances.pair,
        held: ledgerBalances.held,
        due,
        amountCents: sql<number>`sum(${ledgerBalances.amountCents})`,
      })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.programId, programId),
          partnerWhere(ledgerBalances.partnerId),
          sql`(${ledgerBalances.day} < 0 or ${ledgerBalances.day} <> ${cutoffDay})`,
        ),
      )
      .groupBy(
        ledgerBalances.partnerId,
        ledgerBalances.currency,
        ledgerBalances.kind,
        ledgerBalances.payout,
        ledgerBalances.pair,
        ledgerBalances.held,
        due,
      )
      .all()
      .map(
        (r): LedgerGroup => ({
          partnerId: r.partnerId,
          currency: r.currency,
          kind: r.kind,
          payout: r.payout === '' ? null : r.payout,
          pair: r.pair === 'none' ? null : { payout: r.pair === '' ? null : r.pair },
          held: r.held === 1,
          due: Boolean(r.due),
          amountCents: r.amountCents,
        }),
      )
    const boundary = (['commission', 'reversal'] as const).flatMap((kind) =>
      this.scannedGroups(
        programId,
        cutoffs,
        and(
          partnerWhere(commissions.partnerId),
          eq(commissions.kind, kind),
          gte(commissions.createdAt, days[kind] * DAY_MS),
          lt(commissions.createdAt, (days[kind] + 1) * DAY_MS),
          isNull(entryPayout.id),
          or(isNull(pair.id), sql`${pairPayout.id} is not null`),
          // A held entry's rows carry day -1: the counted rows hold it already.
          notHeld,
        ),
      ),
    )
    return [...counted, ...boundary]
  }

  /** ledgerGroups read entry by entry (the live entries of the program matching `where`). */
  private scannedGroups(programId: number, cutoffs: { commission: number; reversal: number }, where: SQL | undefined): LedgerGroup[] {
    const { db } = this.connection
    const paired = sql<number>`${pair.id} is not null`
    const due = sql<number>`${commissions.createdAt} <= case ${commissions.kind} when 'reversal' then ${cutoffs.reversal} else ${cutoffs.commission} end`
    const rows = db
      .select({
        partnerId: commissions.partnerId,
        currency: commissions.currency,
        kind: commissions.kind,
        payout: entryPayout.status,
        paired,
        pairPayout: pairPayout.status,
        due,
        amountCents: sql<number>`sum(${commissions.amountCents})`,
      })
      .from(commissions)
      .leftJoin(pair, and(eq(pair.saleId, commissions.saleId), ne(pair.kind, commissions.kind)))
      .leftJoin(entryPayout, and(eq(entryPayout.ledgerEntryId, commissions.id), ne(entryPayout.status, 'canceled')))
      .leftJoin(pairPayout, and(eq(pairPayout.ledgerEntryId, pair.id), ne(pairPayout.status, 'canceled')))
      .where(and(eq(commissions.programId, programId), eq(commissions.testMode, false), where))
      .groupBy(commissions.partnerId, commissions.currency, commissions.kind, entryPayout.status, paired, pairPayout.status, due)
      .all()
    return rows.map((r) => ({
      partnerId: r.partnerId,
      currency: r.currency,
      kind: r.kind,
      payout: r.payout as PayoutState,
      pair: r.paired ? { payout: r.pairPayout as PayoutState } : null,
      held: false,
      due: Boolean(r.due),
      amountCents: r.amountCents,
    }))
  }

  /** A partner's payouts, newest first, one page (as listPayouts). */
  listPartnerPayouts(partnerId: number, limit: number, cursor: number | null): Payout[] {
    return this.payoutPage(eq(payouts.partnerId, partnerId), limit, cursor)
  }

  /**
   * Creates the planned payouts with their entries. Throws the UNIQUE violation of
   * payout_entries_once when an entry is already in a pending or paid payout (exactly once).
   */
  createPayouts(programId: number, plans: PlannedPayout[], now: number): Payout[] {
    const { db } = this.connection
    return plans.map((plan) => {
      const payout = db
        .insert(payouts)
        .values({
          programId,
          partnerId: plan.partnerId,
          currency: plan.currency,
          amountCents: plan.amountCents,
          commissions: plan.entryIds.length,
          status: 'pending',
          createdAt: now,
        })
        .returning()
        .get()
      for (const ledgerEntryId of plan.entryIds) this.insertEntry.run({ payoutId: payout.id, ledgerEntryId })
      this.moveBalances(payout.id, '', 'pending')
      this.chain.append(programId, plan.partnerId, 'payout', payout.id, -plan.amountCents, plan.currency, now, false)
      return payout
    })
  }

  /** The program's payouts, newest first: one page of `limit` (+1 to tell whether more follow) before `cursor`. */
  listPayouts(programId: number, limit: number, cursor: number | null): Payout[] {
    return this.payoutPage(eq(payouts.programId, programId), limit, cursor)
  }

  /** Payouts matching `owner`, newest first, before `cursor`: `limit` + 1 rows (the extra one tells whether more follow). */
  private payoutPage(owner: SQL, limit: number, cursor: number | null): Payout[] {
    const where = cursor === null ? owner : and(owner, lt(payouts.id, cursor))
    return this.connection.db
      .select()
      .from(payouts)
      .where(where)
      .orderBy(desc(payouts.id))
      .limit(limit + 1)
      .all()
  }

  findPayout(payoutId: number): Payout | null {
    const { db } = this.connection
    return db.select().from(payouts).where(eq(payouts.id, payoutId)).get() ?? null
  }

  /** The ledger entries of a payout, oldest first. */
  entriesOf(payoutId: number): PayoutEntry[] {
    const { db } = this.connection
    return db
      .select({
        commissionId: commissions.id,
        kind: commissions.kind,
        amountCents: commissions.amountCents,
        createdAt: commissions.createdAt,
      })
      .from(payoutEntries)
      .innerJoin(commissions, eq(commissions.id, payoutEntries.ledgerEntryId))
      .where(eq(payoutEntries.payoutId, payoutId))
      .orderBy(commissions.id)
      .all()
  }

  /** The program's payouts of the given statuses with their partner's name and email, newest first (the CSV). */
  payoutsWithPartners(programId: number, statuses: PayoutStatus[]): CsvPayout[] {
    const { db } = this.connection
    const rows = db
      .select({
        payout: payouts,
        partnerName: partners.name,
        partnerEmail: partners.email,
        payoutMethod: partners.payoutMethod,
        payoutDetails: partners.payoutDetails,
      })
      .from(payouts)
      .innerJoin(partners, eq(partners.id, payouts.partnerId))
      .where(and(eq(payouts.programId, programId), inArray(payouts.status, statuses)))
      .orderBy(desc(payouts.id))
      .all()
    return rows.map(({ payout, ...partner }) => ({ ...payout, ...partner }))
  }

  /** Marks a pending payout paid; a paid one is answered as it is, a canceled one is a conflict. */
  markPaid(payoutId: number, reference: string | null, now: number): PayoutChange {
    const payout = this.findPayout(payoutId)
    if (!payout) return { kind: 'not_found' }
    if (payout.status === 'paid') return { kind: 'ok', payout }
    if (payout.status === 'canceled') return { kind: 'conflict', payout }
    return { kind: 'ok', payout: this.setStatus(payoutId, { status: 'paid', paidAt: now, reference }) }
  }

  /** Cancels a pending payout, freeing its entries; a canceled one is answered as it is, a paid one is a conflict. */
  cancel(payoutId: number, now: number): PayoutChange {
    const payout = this.findPayout(payoutId)
    if (!payout) return { kind: 'not_found' }
    if (payout.status === 'canceled') return { kind: 'ok', payout }
    if (payout.status === 'paid') return { kind: 'conflict', payout }
    this.chain.append(payout.programId, payout.partnerId, 'payout_canceled', payoutId, payout.amountCents, payout.currency, now, false)
    return { kind: 'ok', payout: this.setStatus(payoutId, { status: 'canceled', canceledAt: now }) }
  }

  private setStatus(payoutId: number, change: Partial<Payout> & { status: PayoutStatus }): Payout {
    const { db } = this.connection
    db.update(payoutEntries).set({ status: change.status }).where(eq(payoutEntries.payoutId, payoutId)).run()
    // Only a pending payout changes status (markPaid, cancel): its entries were 'pending'.
    this.moveBalances(payoutId, 'pending', change.status === 'paid' ? 'paid' : '')
    return db.update(payouts).set(change).where(eq(payouts.id, payoutId)).returning().get()!
  }
}
