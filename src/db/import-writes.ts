import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { PartnerStatusWord } from '../domain/imports.ts'
import type { Catalog } from './catalog.ts'
import { partnerEmail } from './email-keys.ts'
import type { Connection } from './open.ts'
import { coupons, links, partners, payouts, programs } from './schema.ts'

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

/**
 * The rows an import writes into the program (partners, links, coupons, customers, sales and
 * payouts with their source and source id), and the reads that keep it idempotent. Ledger entries
 * go through SaleStore.insertCommission and PayoutStore (their chain links); writes run in a writer unit.
 */
export class ImportWriteStore {
  // Prepared once: an import of 100,000 commissions looks each one's partner, sale and chain up.
  private readonly s

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {
    const { client } = connection
    const bySourceIn = (table: string) => client.prepare(`SELECT id FROM ${table} WHERE program_id = ? AND source = ? AND source_id = ?`)
    this.s = {
      partner: bySourceIn('partners'),
      sale: bySourceIn('sales'),
      coupon: bySourceIn('coupons'),
      payout: bySourceIn('payouts'),
      customer: client.prepare('SELECT id, partner_id AS partnerId FROM customers WHERE program_id = ? AND customer_key = ?'),
      link: client.prepare('SELECT program_id AS programId, partner_id AS partnerId FROM links WHERE short_link = ?'),
      lastBooked: client.prepare(`SELECT max(at) AS at FROM (
          SELECT created_at AS at FROM (SELECT created_at FROM commissions WHERE partner_id = ?1 ORDER BY id DESC LIMIT 1)
          UNION ALL SELECT max(max(created_at), coalesce(max(canceled_at), 0)) FROM payouts WHERE partner_id = ?1)`),
      insertSale: client.prepare(`INSERT INTO sales (program_id, customer_id, transaction_id, amount_cents, currency, occurred_at, provider,
          test_mode, attribution, created_at, source, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id`),
      insertCustomer: client.prepare(`INSERT INTO customers (program_id, customer_key, partner_id, email, status, test_mode, lead_at,
          converted_at, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id`),
      unpaid: client.prepare(`SELECT c.id AS entryId, c.partner_id AS partnerId, c.currency, c.amount_cents AS amountCents
          FROM sales s JOIN commissions c ON c.sale_id = s.id AND c.kind = 'commission'
          WHERE s.program_id = ? AND s.source = ? AND s.source_id = ?
            AND NOT EXISTS (SELECT 1 FROM payout_entries pe WHERE pe.ledger_entry_id = c.id AND pe.status <> 'canceled')`),
    }
  }

  private idBySource(statement: { get(...params: unknown[]): unknown }, o: Origin): number | null {
    return (statement.get(o.programId, o.source, o.sourceId) as { id: number } | null)?.id ?? null
  }

  partnerOf(o: Origin): number | null {
    return this.idBySource(this.s.partner, o)
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
    return (this.s.link.get(shortLink) as { programId: number | null; partnerId: number | null } | null) ?? null
  }

  /** A link an import brought, with its tool (the parameters other than `aff` find only such links). */
  createLink(programId: number, partnerId: number, shortLink: string, source: string, createdAt: number): void {
    this.catalog.changed()
    this.connection.db.insert(links).values({ programId, partnerId, shortLink, source, createdAt }).run()
  }

  couponOf(o: Origin): boolean {
    return this.idBySource(this.s.coupon, o) !== null
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
    return (this.s.customer.get(programId, key) as { id: number; partnerId: number | null } | null) ?? null
  }

  /** A customer the source attributed to the partner: a lead, or converted at `at`. */
  createCustomer(c: {
    programId: number
    key: string
    partnerId: number
    email: string | null
    converted: boolean
    at: number
    now: number
  }): number {
    const status = c.converted ? 'converted' : 'lead'
    return (
      this.s.insertCustomer.get(c.programId, c.key, c.partnerId, c.email, status, c.at, c.converted ? c.at : null, c.now) as { id: number }
    ).id
  }

  saleOf(o: Origin): number | null {
    return this.idBySource(this.s.sale, o)
  }

  /**
   * The imported sale of a source commission. Its transaction_id names the tool and 96 random bits:
   * transaction ids are unique across the server, so one built from the program and source ids could
   * be taken first through another program's key, and the import would stop on it. A re-run finds
   * the sale by its source and source id, never by this id.
   */
  insertSale(
    o: Origin,
    s: { customerId: number | null; partnerId: number; amountCents: number; currency: string; occurredAt: number; createdAt: number },
  ): number {
    const attribution = JSON.stringify({ rule: 'import', source: o.source, source_id: o.sourceId, partner_id: s.partnerId })
    const row = this.s.insertSale.get(
      o.programId,
      s.customerId,
      `import_${o.source}_${randomBytes(12).toString('base64url')}`,
      s.amountCents,
      s.currency,
      s.occurredAt,
      o.source,
      attribution,
      s.createdAt,
      o.source,
      o.sourceId,
    ) as { id: number }
    return row.id
  }

  /** The commission entry of the imported sale named, when it is in no pending or paid payout yet; else null. */
  unpaidEntries(programId: number, source: string, sourceId: string): PaidEntry | null {
    return (this.s.unpaid.get(programId, source, sourceId) as PaidEntry | null) ?? null
  }

  payoutOf(o: Origin): boolean {
    return this.idBySource(this.s.payout, o) !== null
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
    return (this.s.lastBooked.get(partnerId) as { at: number | null } | null)?.at ?? null
  }
}
