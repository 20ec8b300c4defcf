import type { ChainStore } from './chain-store.ts'
import { and, desc, eq, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { LedgerFacts, LedgerKind, PayoutState, PlannedPayout } from '../domain/payout.ts'
import type { Connection } from './open.ts'
import { balanceMover, notHeld, pair } from './ledger-balances.ts'
import { commissions, partners, payoutEntries, payouts, programs, type Payout } from './schema.ts'

export type { PayoutStatus } from '../domain/payout-method.ts'
import type { PayoutStatus } from '../domain/payout-method.ts'

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
  kind: LedgerKind
  amountCents: number
  createdAt: number
}

export interface CsvPayout extends Payout {
  partnerName: string | null
  partnerEmail: string | null
  /** The partner's payout details as they wrote them in the portal (domain/payout-method.ts). */
  payoutMethod: string | null
  payoutDetails: string | null
}

export type PayoutChange = { kind: 'ok'; payout: Payout } | { kind: 'not_found' } | { kind: 'conflict'; payout: Payout }

const isHeld = sql<boolean>`${commissions.review} is 'held'`.mapWith(Boolean)
// The partial UNIQUE index payout_entries_once answers this lookup: its WHERE is repeated here.
const activePayoutOf = (entryId: SQLiteColumn) =>
  sql<PayoutState>`(select pe.status from payout_entries pe where pe.ledger_entry_id = ${entryId} and pe.status <> 'canceled')`

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
    this.moveBalances = balanceMover(connection)
  }

  /** The program's payout terms, or null when no such program exists. */
  findTerms(programId: number): { holdingPeriodDays: number; minimumPayout: number; minimumPayouts: Record<string, number> } | null {
    const { db } = this.connection
    return (
      db
        .select({
          holdingPeriodDays: programs.holdingPeriodDays,
          minimumPayout: programs.minimumPayout,
          minimumPayouts: programs.minimumPayouts,
        })
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
        dueAt: commissions.dueAt,
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

  /**
   * Marks a pending payout paid; a paid one is answered as it is; a canceled or failed one is a
   * conflict, and so is one a rail is sending (`processing`: the rail says when it is paid).
   */
  markPaid(payoutId: number, reference: string | null, now: number): PayoutChange {
    const payout = this.findPayout(payoutId)
    if (!payout) return { kind: 'not_found' }
    if (payout.status === 'paid') return { kind: 'ok', payout }
    if (payout.status !== 'pending') return { kind: 'conflict', payout }
    return { kind: 'ok', payout: this.setStatus(payoutId, { status: 'paid', paidAt: now, reference }) }
  }

  /** Cancels a pending payout, freeing its entries; a canceled one is answered as it is; paid, failed or processing is a conflict. */
  cancel(payoutId: number, now: number): PayoutChange {
    const payout = this.findPayout(payoutId)
    if (!payout) return { kind: 'not_found' }
    if (payout.status === 'canceled') return { kind: 'ok', payout }
    if (payout.status !== 'pending') return { kind: 'conflict', payout }
    return { kind: 'ok', payout: this.release(payout, { status: 'canceled', canceledAt: now }, now) }
  }

  /**
   * The rail's last word on a processing payout (src/payouts/send.ts): paid with the rail's
   * reference, or failed with its reason, its entries due again as after a cancel. Null when the
   * payout is not processing (already settled: the second word is no change).
   */
  settle(payoutId: number, outcome: { paid: string } | { failed: string }, now: number): Payout | null {
    const payout = this.findPayout(payoutId)
    if (payout?.status !== 'processing') return null
    if ('paid' in outcome) return this.setStatus(payoutId, { status: 'paid', paidAt: now, reference: outcome.paid })
    return this.release(payout, { status: 'failed', canceledAt: now, failureReason: outcome.failed.slice(0, 500) }, now)
  }

  /**
   * Frees a payout's entries (canceled, or failed): its link in the partner's chain is a cancellation
   * (docs/ledger.md, `payout_canceled`: the amount returns), so the partner's statements still verify.
   */
  private release(payout: Payout, change: Partial<Payout> & { status: 'canceled' | 'failed' }, now: number): Payout {
    this.chain.append(payout.programId, payout.partnerId, 'payout_canceled', payout.id, payout.amountCents, payout.currency, now, false)
    return this.setStatus(payout.id, change)
  }

  private setStatus(payoutId: number, change: Partial<Payout> & { status: 'paid' | 'canceled' | 'failed' }): Payout {
    const { db } = this.connection
    const entries = change.status === 'paid' ? 'paid' : 'canceled'
    db.update(payoutEntries).set({ status: entries }).where(eq(payoutEntries.payoutId, payoutId)).run()
    // Only a pending or processing payout changes status here: its entries were 'pending'.
    this.moveBalances(payoutId, 'pending', entries === 'paid' ? 'paid' : '')
    return db.update(payouts).set(change).where(eq(payouts.id, payoutId)).returning().get()!
  }
}
