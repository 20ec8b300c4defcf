import type { LedgerKind } from '../domain/payout.ts'
import { and, count, desc, eq, lt, ne, sql } from 'drizzle-orm'
import type { ChainStore } from './chain-store.ts'
import { plainInsert } from './columns.ts'
import type { FraudFlag } from '../domain/fraud.ts'
import type { Connection } from './open.ts'
import { type Commission, commissions, ledgerBalances, partners, refunds, sales, type Sale } from './schema.ts'

const p = sql.placeholder

/** The columns SaleStore.insertSale binds, in its order (status takes its default). */
const saleColumns = [
  sales.programId,
  sales.customerId,
  sales.transactionId,
  sales.amountCents,
  sales.currency,
  sales.occurredAt,
  sales.provider,
  sales.providerPaymentId,
  sales.livemode,
  sales.testMode,
  sales.attribution,
  sales.createdAt,
]

/** The columns SaleStore.insertCommission binds, in its order. */
const commissionColumns = [
  commissions.programId,
  commissions.saleId,
  commissions.partnerId,
  commissions.kind,
  commissions.amountCents,
  commissions.currency,
  commissions.testMode,
  commissions.createdAt,
  commissions.flags,
  commissions.review,
  commissions.dueAt,
  commissions.description,
]

function build({ db, client }: Connection) {
  return {
    // Prepared once, like the writer's own SAVEPOINT: exec parsed each of them on every sale (issue 14).
    attemptBegin: client.prepare('SAVEPOINT attempt'),
    attemptRelease: client.prepare('RELEASE attempt'),
    attemptRollback: client.prepare('ROLLBACK TO attempt'),
    // The sale path's two writes as plain statements (columns.ts, plainInsert): values bound in these orders.
    insertSale: plainInsert(client, sales, saleColumns, true),
    insertCommission: plainInsert(client, commissions, commissionColumns, true),
    saleIdByTransaction: db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.transactionId, p('transactionId')))
      .prepare(),
    saleInProgram: db
      .select()
      .from(sales)
      .where(and(eq(sales.transactionId, p('transactionId')), eq(sales.programId, p('programId'))))
      .prepare(),
    // A partner's commissions not yet paid in one currency, from the ledger's rollup (one range of
    // its primary key): pending and in-payout entries count, paid ones and reversals do not.
    unpaidCommissions: db
      .select({ cents: sql<number>`coalesce(sum(${ledgerBalances.amountCents}), 0)` })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.programId, p('programId')),
          eq(ledgerBalances.partnerId, p('partnerId')),
          eq(ledgerBalances.currency, p('currency')),
          ne(ledgerBalances.kind, 'reversal'),
          ne(ledgerBalances.payout, 'paid'),
        ),
      )
      .prepare(),
    saleById: db
      .select()
      .from(sales)
      .where(eq(sales.id, p('id')))
      .prepare(),
    entryById: db
      .select()
      .from(commissions)
      .where(eq(commissions.id, p('id')))
      .prepare(),
    commissionOf: db
      .select()
      .from(commissions)
      .where(and(eq(commissions.saleId, p('saleId')), eq(commissions.kind, p('kind'))))
      .prepare(),
  }
}

type Statements = ReturnType<typeof build>

/** A sale row as the sale path writes it; tracking's SaleInput is built from these fields. */
export interface NewSale {
  programId: number
  customerId: number | null
  /** The idempotency key, unique across programs (docs/api.md: processor_event_id). */
  transactionId: string
  amountCents: number
  /** USD, EUR or VND (domain/commission.ts CURRENCIES), already checked. */
  currency: string
  /** Epoch ms of the payment, already within docs/api.md's bounds. */
  occurredAt: number
  provider: string | null
  providerPaymentId: string | null
  livemode: boolean | null
  testMode: boolean
  attribution: Record<string, unknown>
  createdAt: number
}

export interface NewCommission {
  programId: number
  /** Null for a bonus. */
  saleId: number | null
  partnerId: number
  kind: LedgerKind
  amountCents: number
  currency: string
  testMode: boolean
  createdAt: number
  /** The fraud flags it raised (domain/fraud.ts), and whether it is held for review; none for a reversal. */
  flags?: FraudFlag[]
  held?: boolean
  /** When it is due (domain/payout.ts dueAtOf), fixed now. */
  dueAt: number
  /** A bonus's words. */
  description?: string | null
}

/** A program's held commissions, written as the partial index commissions_held says it (a literal, not a bound value), so that it is used. */
const heldIn = (programId: number) => and(eq(commissions.programId, programId), sql`${commissions.review} = 'held'`)

/** A commission held for review, with what the Review page and `svc review list` show beside it. */
export interface HeldCommission extends Commission {
  partnerName: string | null
  partnerEmail: string | null
  transactionId: string
  saleAmountCents: number
}

/** Sales, the commission ledger and refunds over one database; writes run inside a writer unit. */
export class SaleStore {
  private readonly s: Statements

  constructor(
    private readonly connection: Connection,
    private readonly chain: ChainStore,
  ) {
    this.s = build(connection)
  }

  /** Inserts a sale; throws the UNIQUE violation when transaction_id is taken in any program (uniqueViolation names it). */
  insertSale(sale: NewSale): number {
    const row = this.s.insertSale.get(
      sale.programId,
      sale.customerId,
      sale.transactionId,
      sale.amountCents,
      sale.currency,
      sale.occurredAt,
      sale.provider,
      sale.providerPaymentId,
      sale.livemode === null ? null : sale.livemode ? 1 : 0,
      sale.testMode ? 1 : 0,
      JSON.stringify(sale.attribution),
      sale.createdAt,
    ) as { id: number }
    return row.id
  }

  /** A ledger entry by id, or null. */
  entry(id: number): Commission | null {
    return this.s.entryById.get({ id }) ?? null
  }

  /**
   * The sum of a partner's commission entries in `currency` that are not paid yet (pending, due or
   * in a pending payout): the balance that docs/decisions.md keeps within 2^53 − 1 cents.
   */
  unpaidCommissionCents(programId: number, partnerId: number, currency: string): number {
    return this.s.unpaidCommissions.get({ programId, partnerId, currency })?.cents ?? 0
  }

  insertCommission(entry: NewCommission): number {
    const row = this.s.insertCommission.get(
      entry.programId,
      entry.saleId,
      entry.partnerId,
      entry.kind,
      entry.amountCents,
      entry.currency,
      entry.testMode ? 1 : 0,
      entry.createdAt,
      JSON.stringify(entry.flags ?? []),
      entry.held ? 'held' : null,
      entry.dueAt,
      entry.description ?? null,
    ) as { id: number }
    // The entry's link in the partner's hash chain commits with it (docs/ledger.md).
    this.chain.append(
      entry.programId,
      entry.partnerId,
      entry.kind,
      row.id,
      entry.amountCents,
      entry.currency,
      entry.createdAt,
      entry.testMode,
    )
    return row.id
  }

  /** The id of the sale recorded under transaction_id in any program (docs/api.md: duplicates are global). */
  saleIdOf(transactionId: string): number | null {
    return this.s.saleIdByTransaction.get({ transactionId })?.id ?? null
  }

  /** The sale recorded under transaction_id in this program, or null. */
  findSale(programId: number, transactionId: string): Sale | null {
    return this.s.saleInProgram.get({ programId, transactionId }) ?? null
  }

  /** A sale by id, or null. */
  saleById(id: number): Sale | null {
    return this.s.saleById.get({ id }) ?? null
  }

  /** The sale's commission entry (or its reversal, with `kind`), or null when it has none. */
  commissionOf(saleId: number, kind: Commission['kind'] = 'commission'): Commission | null {
    return this.s.commissionOf.get({ saleId, kind }) ?? null
  }

  /**
   * The program's commissions held for review, newest first: `limit` + 1 before `cursor` (the
   * extra one tells whether more follow). `review` is 'held' exactly while one waits (a review or
   * a refund of its sale takes it away), so the partial index commissions_held is the whole query.
   */
  heldPage(programId: number, limit: number, cursor: number | null): HeldCommission[] {
    return this.connection.db
      .select({
        entry: commissions,
        partnerName: partners.name,
        partnerEmail: partners.email,
        transactionId: sales.transactionId,
        saleAmountCents: sales.amountCents,
      })
      .from(commissions)
      .innerJoin(partners, eq(partners.id, commissions.partnerId))
      .innerJoin(sales, eq(sales.id, commissions.saleId))
      .where(and(heldIn(programId), cursor === null ? undefined : lt(commissions.id, cursor)))
      .orderBy(desc(commissions.id))
      .limit(limit + 1)
      .all()
      .map(({ entry, ...rest }) => ({ ...entry, ...rest }))
  }

  /** How many of the program's commissions are held for review (the count on the dashboard's tabs). */
  heldCount(programId: number): number {
    return this.connection.db.select({ n: count() }).from(commissions).where(heldIn(programId)).get()?.n ?? 0
  }

  /**
   * Records a held commission's review (approved, or rejected with the reason), or (null) takes its
   * hold away unreviewed when its sale is refunded; the trigger of migration 0018 moves it out of
   * the held balances. False when the entry is not held.
   */
  review(id: number, outcome: 'approved' | 'rejected' | null, reason: string | null, now: number | null): boolean {
    const changed = this.connection.db
      .update(commissions)
      .set({ review: outcome, reviewedAt: now, reviewReason: reason })
      .where(and(eq(commissions.id, id), eq(commissions.review, 'held')))
      .returning({ id: commissions.id })
      .all()
    return changed.length === 1
  }

  /**
   * Runs `write` in a nested SAVEPOINT inside the current unit: on failure only its writes are
   * undone and the error is returned, so the sale written before it stays (docs/errors.md, 500 errors:
   * "Failed to create commission" leaves the sale event written).
   */
  attempt<T>(write: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
    const { attemptBegin, attemptRelease, attemptRollback } = this.s
    attemptBegin.run()
    try {
      const value = write()
      attemptRelease.run()
      return { ok: true, value }
    } catch (error) {
      attemptRollback.run()
      this.chain.forget()
      attemptRelease.run()
      return { ok: false, error }
    }
  }

  /** Marks a sale refunded or charged back and records its refund row (sale_id UNIQUE: one per sale). */
  recordRefund(saleId: number, reason: 'refund' | 'chargeback', refundReason: string | null, now: number): void {
    const { db } = this.connection
    db.insert(refunds).values({ saleId, reason, refundReason, createdAt: now }).run()
    db.update(sales)
      .set({ status: reason === 'refund' ? 'refunded' : 'charged_back' })
      .where(eq(sales.id, saleId))
      .run()
  }
}
