import { and, count, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm'
import type { PartnerTerms } from '../domain/attribution.ts'
import { applicantKey, emailKey } from '../domain/email.ts'
import type { Catalog } from './catalog.ts'
import { partnerEmail } from './email-keys.ts'
import type { Connection } from './open.ts'
import { customers, links, partnerGroups, partnerIps, partners, sales, type PartnerStatus } from './schema.ts'

export type Partner = typeof partners.$inferSelect

/** What an owner (or the partner, for the payout details) may change on a partner. */
export type PartnerChanges = Partial<
  Pick<Partner, 'name' | 'email' | 'commissionType' | 'commissionRate' | 'recurringMonths' | 'payoutMethod' | 'payoutDetails' | 'groupId'>
>

/** A partners list's filters: `status` exactly, `q` a part of the name or email in any case. */
export interface PartnerFilter {
  status?: PartnerStatus
  q?: string
  /** Only the partners of this group. */
  groupId?: number
}

/** A partner with how many referral links it has (the partners CSV). */
export type PartnerWithLinks = Partner & { links: number }

/**
 * A program's partners: reads that leave deleted partners out, the owner's edits, status changes
 * and deletion. A write that changes whether a partner's links attribute calls catalog.changed(),
 * since the click path reads links (with their partner's status) from the catalog. Writes run
 * inside a writer unit.
 */
export class PartnerStore {
  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {}

  /** The partner `partnerId` of program `programId`, or null (also when it was deleted). */
  find(programId: number, partnerId: number): Partner | null {
    return (
      this.connection.db
        .select()
        .from(partners)
        .where(and(eq(partners.id, partnerId), eq(partners.programId, programId), isNull(partners.deletedAt)))
        .get() ?? null
    )
  }

  /**
   * A partner's own commission terms and its group's (null fields take the next level's: domain
   * termsFor), read on every attributed sale: kept in the catalog, which update() and the group
   * store's writes invalidate. Null when no partner has that id.
   */
  terms(partnerId: number): (PartnerTerms & { group: PartnerTerms | null; email: string | null; knownIps: boolean }) | null {
    return this.catalog.row(`partner-terms:${partnerId}`, () => {
      const row = this.connection.db
        .select({
          commissionType: partners.commissionType,
          commissionRate: partners.commissionRate,
          recurringMonths: partners.recurringMonths,
          groupId: partnerGroups.id,
          groupType: partnerGroups.commissionType,
          groupRate: partnerGroups.commissionRate,
          groupMonths: partnerGroups.recurringMonths,
          groupHolding: partnerGroups.holdingPeriodDays,
          // The self_referral signal compares the customer's email with it (domain/fraud.ts); same_ip
          // looks the partner's IPs up only when it has some (most partners never sign in).
          email: partners.email,
          knownIps: sql<boolean>`EXISTS (SELECT 1 FROM ${partnerIps} WHERE ${partnerIps.partnerId} = ${partners.id})`.mapWith(Boolean),
        })
        .from(partners)
        .leftJoin(partnerGroups, eq(partnerGroups.id, partners.groupId))
        .where(eq(partners.id, partnerId))
        .get()
      if (!row) return null
      const { groupId, groupType, groupRate, groupMonths, groupHolding, ...own } = row
      const group =
        groupId === null
          ? null
          : { commissionType: groupType, commissionRate: groupRate, recurringMonths: groupMonths, holdingPeriodDays: groupHolding }
      return { ...own, group }
    })
  }

  /** The partner of a program who is the same applicant (domain/email.ts applicantKey), or null; deleted partners are none. */
  findApplicant(programId: number, email: string): Partner | null {
    return (
      this.connection.db
        .select()
        .from(partners)
        .where(and(eq(partners.programId, programId), isNull(partners.deletedAt), eq(partners.applicantKey, applicantKey(email))))
        .orderBy(partners.id)
        .limit(1)
        .get() ?? null
    )
  }

  /** Active partners of any program with this email (by its key: any case, NFKC): who a partner sign-in link goes to. */
  activeByEmail(email: string): Partner[] {
    return this.connection.db
      .select()
      .from(partners)
      .where(and(isNull(partners.deletedAt), eq(partners.status, 'active'), eq(partners.emailKey, emailKey(email))))
      .orderBy(partners.id)
      .limit(20)
      .all()
  }

  /** Adds an applicant (pending, or active under an open program); returns its id. */
  createApplicant(values: {
    programId: number
    name: string
    email: string
    website: string | null
    promotion: string | null
    wishedShortLink: string | null
    status: PartnerStatus
    groupId: number | null
    createdAt: number
    lastAppliedAt: number
  }): number {
    this.catalog.changed()
    return this.connection.db
      .insert(partners)
      .values({ ...values, ...partnerEmail(values.email) })
      .returning({ id: partners.id })
      .get().id
  }

  /** Records that the join form took an application with this partner's email again. */
  noteApplication(partnerId: number, now: number): void {
    this.connection.db.update(partners).set({ lastAppliedAt: now }).where(eq(partners.id, partnerId)).run()
  }

  /** Applies `changes` (undefined fields are left alone); the partner after, or null when unknown. */
  update(programId: number, partnerId: number, changes: PartnerChanges): Partner | null {
    if (!this.find(programId, partnerId)) return null
    this.catalog.changed()
    const set = Object.fromEntries(Object.entries({ ...changes, ...partnerEmail(changes.email) }).filter(([, v]) => v !== undefined))
    if (Object.keys(set).length > 0) this.connection.db.update(partners).set(set).where(eq(partners.id, partnerId)).run()
    return this.find(programId, partnerId)
  }

  /** Sets the status; the partner after, or null when unknown. Only an active partner's links attribute. */
  setStatus(programId: number, partnerId: number, status: PartnerStatus): Partner | null {
    if (!this.find(programId, partnerId)) return null
    this.catalog.changed()
    this.connection.db.update(partners).set({ status }).where(eq(partners.id, partnerId)).run()
    return this.find(programId, partnerId)
  }

  /**
   * Deletes a partner without sales: the row stays (its clicks and customers point at it) but is
   * listed nowhere, and its links stop attributing. 'has_sales' when a sale of one of its customers
   * exists (suspend them instead); null when unknown.
   */
  remove(programId: number, partnerId: number, now: number): 'deleted' | 'has_sales' | null {
    const { db } = this.connection
    if (!this.find(programId, partnerId)) return null
    const sold = db
      .select({ id: sales.id })
      .from(customers)
      .innerJoin(sales, eq(sales.customerId, customers.id))
      .where(eq(customers.partnerId, partnerId))
      .limit(1)
      .get()
    if (sold) return 'has_sales'
    this.catalog.changed()
    db.update(partners).set({ deletedAt: now }).where(eq(partners.id, partnerId)).run()
    db.update(links).set({ active: false }).where(eq(links.partnerId, partnerId)).run()
    return 'deleted'
  }

  /** Up to `limit` partners of a program matching `filter`, newest first, ids below `cursor`. */
  page(programId: number, filter: PartnerFilter, limit: number, cursor: number | null): Partner[] {
    const where = this.where(programId, filter, cursor === null ? undefined : lt(partners.id, cursor))
    return this.connection.db.select().from(partners).where(where).orderBy(desc(partners.id)).limit(limit).all()
  }

  /** Every partner of a program matching `filter`, newest first, with its number of links. */
  withLinks(programId: number, filter: PartnerFilter): PartnerWithLinks[] {
    const { db } = this.connection
    const linkCount = db
      .select({ partnerId: links.partnerId, n: count().as('n') })
      .from(links)
      .groupBy(links.partnerId)
      .as('link_count')
    return db
      .select({ partner: partners, links: sql<number>`coalesce(${linkCount.n}, 0)` })
      .from(partners)
      .leftJoin(linkCount, eq(linkCount.partnerId, partners.id))
      .where(this.where(programId, filter))
      .orderBy(desc(partners.id))
      .all()
      .map((row) => ({ ...row.partner, links: row.links }))
  }

  /** Keeps a keyed hash of an IP the partner applied or signed in from (the same_ip signal); once per IP. */
  rememberIp(partnerId: number, ipHash: string, now: number): void {
    const added = this.connection.db
      .insert(partnerIps)
      .values({ partnerId, ipHash, createdAt: now })
      .onConflictDoNothing()
      .returning({ partnerId: partnerIps.partnerId })
      .all()
    // terms() caches whether the partner has IPs.
    if (added.length > 0) this.catalog.changed()
  }

  /**
   * Whether the partner applied or signed in from either IP (keyed hashes; null for none). Read on
   * every checked commission: prepared once, since Drizzle's builder prepares again on each call
   * (the builder's query cost a sale 60 µs of CPU, bench/micro.ts).
   */
  usedIp(partnerId: number, first: string | null, second: string | null): boolean {
    if (first === null && second === null) return false
    this.usedIpQuery ??= this.connection.client.prepare(
      'SELECT 1 AS one FROM "partner_ips" WHERE "partner_id" = ? AND "ip_hash" IN (?, ?) LIMIT 1',
    )
    return this.usedIpQuery.get(partnerId, first, second) !== null
  }
  private usedIpQuery: ReturnType<Connection['client']['prepare']> | null = null

  /** How many partners of a program have `status` (the dashboard's Applications count). */
  countWithStatus(programId: number, status: PartnerStatus): number {
    return this.connection.db.select({ n: count() }).from(partners).where(this.where(programId, { status })).get()?.n ?? 0
  }

  private where(programId: number, filter: PartnerFilter, extra?: SQL): SQL | undefined {
    // `q` is matched with instr(), not LIKE: no character of it is a wildcard.
    const q = filter.q?.toLowerCase()
    return and(
      eq(partners.programId, programId),
      isNull(partners.deletedAt),
      filter.status ? eq(partners.status, filter.status) : undefined,
      filter.groupId !== undefined ? eq(partners.groupId, filter.groupId) : undefined,
      q
        ? sql`(instr(lower(coalesce(${partners.name}, '')), ${q}) > 0 or instr(lower(coalesce(${partners.email}, '')), ${q}) > 0)`
        : undefined,
      extra,
    )
  }
}
