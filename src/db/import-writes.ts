import { and, eq, isNull, sql } from 'drizzle-orm'
import type { PartnerStatusWord } from '../domain/imports.ts'
import type { Catalog } from './catalog.ts'
import { partnerEmail } from './email-keys.ts'
import type { Connection } from './open.ts'
import { commissions, coupons, customers, links, partners, payoutEntries, payouts, programs, sales } from './schema.ts'

/** A source row's origin: its program, tool and id (the UNIQUE of every imported row). */
export interface Origin {
  programId: number
  source: string
  sourceId: string
}

/** An imported commission entry a paid payout takes. */
export interface PaidEntry {
  entryId: number
  partnerId: number
  currency: string
  amountCents: number
}

const bySource = (table: typeof partners | typeof coupons | typeof sales | typeof payouts, o: Origin) =>
  and(eq(table.programId, o.programId), eq(table.source, o.source), eq(table.sourceId, o.sourceId))

/**
 * The rows an import writes into the program (partners, links, coupons, customers, sales and
 * payouts with their source and source id), and the reads that keep it idempotent. Ledger entries
 * go through SaleStore.insertCommission and PayoutStore (their chain links); writes run in a writer unit.
 */
export class ImportWriteStore {
  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {}

  partnerOf(o: Origin): number | null {
    return this.connection.db.select({ id: partners.id }).from(partners).where(bySource(partners, o)).get()?.id ?? null
  }

  createPartner(
    o: Origin,
    p: { name: string | null; email: string | null; status: PartnerStatusWord; paypalEmail: string | null; createdAt: number },
  ): number {
    return this.connection.db
      .insert(partners)
      .values({
        programId: o.programId,
        source: o.source,
        sourceId: o.sourceId,
        name: p.name,
        ...partnerEmail(p.email),
        status: p.status,
        payoutMethod: p.paypalEmail ? 'paypal' : null,
        payoutDetails: p.paypalEmail,
        createdAt: p.createdAt,
      })
      .returning({ id: partners.id })
      .get().id
  }

  /** The link with this short link in any program, or null. */
  link(shortLink: string): { programId: number | null; partnerId: number | null } | null {
    return (
      this.connection.db
        .select({ programId: links.programId, partnerId: links.partnerId })
        .from(links)
        .where(eq(links.shortLink, shortLink))
        .get() ?? null
    )
  }

  createLink(programId: number, partnerId: number, shortLink: string, createdAt: number): void {
    this.catalog.changed()
    this.connection.db.insert(links).values({ programId, partnerId, shortLink, createdAt }).run()
  }

  couponOf(o: Origin): boolean {
    return this.connection.db.select({ id: coupons.id }).from(coupons).where(bySource(coupons, o)).get() !== undefined
  }

  /** The partner of the program's coupon with this code in any case, or null. */
  couponCode(programId: number, code: string): number | null {
    return (
      this.connection.db
        .select({ partnerId: coupons.partnerId })
        .from(coupons)
        .where(and(eq(coupons.programId, programId), eq(coupons.codeKey, code.toLowerCase())))
        .get()?.partnerId ?? null
    )
  }

  createCoupon(o: Origin, partnerId: number, code: string, promotionCode: string | null, createdAt: number): void {
    this.connection.db
      .insert(coupons)
      .values({
        programId: o.programId,
        partnerId,
        code,
        codeKey: code.toLowerCase(),
        stripePromotionCode: promotionCode,
        source: o.source,
        sourceId: o.sourceId,
        createdAt,
      })
      .run()
  }

  customer(programId: number, key: string): { id: number; partnerId: number | null } | null {
    return (
      this.connection.db
        .select({ id: customers.id, partnerId: customers.partnerId })
        .from(customers)
        .where(and(eq(customers.programId, programId), eq(customers.customerKey, key)))
        .get() ?? null
    )
  }

  /** A customer the source attributed to the partner: a lead, or converted at `convertedAt`. */
  createCustomer(c: {
    programId: number
    key: string
    partnerId: number
    email: string | null
    converted: boolean
    at: number
    now: number
  }): number {
    return this.connection.db
      .insert(customers)
      .values({
        programId: c.programId,
        customerKey: c.key,
        partnerId: c.partnerId,
        email: c.email,
        status: c.converted ? 'converted' : 'lead',
        leadAt: c.at,
        convertedAt: c.converted ? c.at : null,
        createdAt: c.now,
      })
      .returning({ id: customers.id })
      .get().id
  }

  saleOf(o: Origin): number | null {
    return this.connection.db.select({ id: sales.id }).from(sales).where(bySource(sales, o)).get()?.id ?? null
  }

  /** The imported sale of a source commission; its transaction_id names the program, tool and id (unique across programs). */
  insertSale(
    o: Origin,
    s: { customerId: number | null; partnerId: number; amountCents: number; currency: string; occurredAt: number; createdAt: number },
  ): number {
    return this.connection.db
      .insert(sales)
      .values({
        programId: o.programId,
        customerId: s.customerId,
        transactionId: `import_${o.programId}_${o.source}_${o.sourceId}`,
        amountCents: s.amountCents,
        currency: s.currency,
        occurredAt: s.occurredAt,
        provider: o.source,
        attribution: { rule: 'import', source: o.source, source_id: o.sourceId, partner_id: s.partnerId },
        source: o.source,
        sourceId: o.sourceId,
        createdAt: s.createdAt,
      })
      .returning({ id: sales.id })
      .get().id
  }

  /** The commission entries of the imported sales named, in no pending or paid payout yet. */
  unpaidEntries(programId: number, source: string, sourceId: string): PaidEntry | null {
    return (
      this.connection.db
        .select({
          entryId: commissions.id,
          partnerId: commissions.partnerId,
          currency: commissions.currency,
          amountCents: commissions.amountCents,
        })
        .from(sales)
        .innerJoin(commissions, and(eq(commissions.saleId, sales.id), eq(commissions.kind, 'commission')))
        .leftJoin(payoutEntries, and(eq(payoutEntries.ledgerEntryId, commissions.id), sql`${payoutEntries.status} <> 'canceled'`))
        .where(and(bySource(sales, { programId, source, sourceId }), isNull(payoutEntries.id)))
        .get() ?? null
    )
  }

  payoutOf(o: Origin): boolean {
    return this.connection.db.select({ id: payouts.id }).from(payouts).where(bySource(payouts, o)).get() !== undefined
  }

  setPayoutSource(payoutId: number, o: Origin): void {
    this.connection.db.update(payouts).set({ source: o.source, sourceId: o.sourceId }).where(eq(payouts.id, payoutId)).run()
  }

  /** Sets a program's link_params (an import adds its source's); the cached links carry them, so they are dropped. */
  setLinkParams(programId: number, params: string[]): void {
    this.catalog.changed()
    this.connection.db.update(programs).set({ linkParams: params }).where(eq(programs.id, programId)).run()
  }

  /** When the partner's last chained entry was booked (a commission, a payout or its cancellation), or null. */
  lastBookedAt(partnerId: number): number | null {
    const row = this.connection.client
      .prepare(`SELECT max(at) AS at FROM (
          SELECT created_at AS at FROM (SELECT created_at FROM commissions WHERE partner_id = ?1 ORDER BY id DESC LIMIT 1)
          UNION ALL SELECT max(max(created_at), coalesce(max(canceled_at), 0)) FROM payouts WHERE partner_id = ?1)`)
      .get(partnerId) as { at: number | null } | null
    return row?.at ?? null
  }
}
