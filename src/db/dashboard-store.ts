import type { LedgerKind } from '../domain/payout.ts'
import type { FraudFlag } from '../domain/fraud.ts'
import { and, asc, eq } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { TimeRange } from './list-store.ts'
import { uniqueViolation } from './errors.ts'
import { partnerEmail } from './email-keys.ts'
import type { Connection } from './open.ts'
import { SalePages } from './sale-pages.ts'
import type { ProgramChanges, ProgramStore } from './program-store.ts'
import { advertisers, links, partners, payouts, programs, type ApiKey, type Payout, type Program } from './schema.ts'

// The dashboard's and partner portal's figures are figure-store.ts's; the lists page
// through the (program_id, created_at) indexes with a (created_at, id) cursor, except sales:
// they page in id order (the order they were recorded in) through sale_blocks, as the operator
// API's do (sale-pages.ts), so that a sale writes no index by program (issue 14); their cursor
// keeps the same "createdAt.id" form and only its id counts.

/** A page of rows and the cursor of the next ("createdAt.id"), null on the last. */
export interface Paged<T> {
  rows: T[]
  next: string | null
}

type Cursor = { at: number; id: number } | null

/** "createdAt.id" from a previous page, or null when absent or not one. */
export function parseCursor(value: string | undefined | null): Cursor {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(value ?? '')
  return match ? { at: Number(match[1]), id: Number(match[2]) } : null
}

const PAGE = 50
function prepare({ client }: Connection) {
  const q = (sql: string) => client.prepare(sql)
  return {
    sales: q(`SELECT s.id, s.transaction_id AS transactionId, s.amount_cents AS amountCents, s.currency, s.occurred_at AS occurredAt,
        s.status, s.test_mode AS testMode, s.provider, s.attribution, s.created_at AS createdAt, c.customer_key AS customerKey,
        p.id AS partnerId, p.name AS partnerName
      FROM sales s LEFT JOIN customers c ON c.id = s.customer_id LEFT JOIN partners p ON p.id = c.partner_id
      WHERE s.program_id = ?1 AND s.id >= ?2 AND s.id < ?3 AND s.created_at >= ?5 AND s.created_at < ?6 ORDER BY s.id DESC LIMIT ?4`),
    commissions: q(`SELECT m.id, m.kind, m.amount_cents AS amountCents, m.currency, m.test_mode AS testMode, m.created_at AS createdAt,
        m.sale_id AS saleId, s.transaction_id AS transactionId, m.partner_id AS partnerId, p.name AS partnerName, m.flags, m.description
      FROM commissions m LEFT JOIN sales s ON s.id = m.sale_id LEFT JOIN partners p ON p.id = m.partner_id
      WHERE m.program_id = ?1 AND (m.created_at, m.id) < (?2, ?3) AND m.created_at >= ?5 AND m.created_at < ?6
      ORDER BY m.created_at DESC, m.id DESC LIMIT ?4`),
    partnerCommissions:
      q(`SELECT m.id, m.kind, m.amount_cents AS amountCents, m.currency, m.test_mode AS testMode, m.created_at AS createdAt,
        m.sale_id AS saleId, s.amount_cents AS saleCents, s.occurred_at AS occurredAt, m.description
      FROM commissions m LEFT JOIN sales s ON s.id = m.sale_id
      WHERE m.partner_id = ?1 AND m.id < ?2 ORDER BY m.id DESC LIMIT ?3`),
    payouts: q(`SELECT o.id, o.partner_id AS partnerId, p.name AS partnerName, o.currency, o.amount_cents AS amountCents, o.commissions,
        o.status, o.reference, o.created_at AS createdAt, o.paid_at AS paidAt, o.canceled_at AS canceledAt,
        o.failure_reason AS failureReason
      FROM payouts o LEFT JOIN partners p ON p.id = o.partner_id WHERE o.program_id = ?1 AND o.id < ?2 ORDER BY o.id DESC LIMIT ?3`),
    partnerPayouts:
      q(`SELECT id, currency, amount_cents AS amountCents, commissions, status, reference, created_at AS createdAt, paid_at AS paidAt
      FROM payouts WHERE program_id = ? AND partner_id = ? AND status <> 'canceled' ORDER BY id DESC LIMIT 100`),
    events: q(`SELECT id, event_id AS eventId, type, livemode, outcome, detail, sale_id AS saleId, created_at AS createdAt
      FROM processor_events WHERE program_id = ?1 AND (created_at, id) < (?2, ?3) ORDER BY created_at DESC, id DESC LIMIT ?4`),
  }
}

function paged<T extends { id: number; createdAt: number }>(rows: T[], size = PAGE): Paged<T> {
  const more = rows.length > size
  const page = more ? rows.slice(0, size) : rows
  const last = page[page.length - 1]
  return { rows: page, next: more ? `${last.createdAt}.${last.id}` : null }
}

const rangeArgs = (range: TimeRange) => [range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER]

const cursorArgs = (cursor: Cursor) => (cursor ? [cursor.at, cursor.id] : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER])

export interface SaleRow {
  id: number
  transactionId: string
  amountCents: number
  currency: string
  occurredAt: number
  status: string
  testMode: number
  provider: string | null
  attribution: string | null
  createdAt: number
  customerKey: string | null
  partnerId: number | null
  partnerName: string | null
}

/** A commission ledger entry as both ledger pages show it. */
interface LedgerEntryRow {
  id: number
  kind: LedgerKind
  amountCents: number
  currency: string
  testMode: number
  createdAt: number
  /** Null for a bonus, which has no sale (and then its `description`). */
  saleId: number | null
  description: string | null
}

/** The owner's commissions page: the entry with its sale's transaction id and its partner. */
export interface LedgerRow extends LedgerEntryRow {
  transactionId: string | null
  partnerId: number
  partnerName: string | null
  /** The fraud signals it raised (domain/fraud.ts). */
  flags: FraudFlag[]
}

/** The partner portal's ledger: the entry with its sale's amount and time. */
export interface PartnerLedgerRow extends LedgerEntryRow {
  saleCents: number | null
  occurredAt: number | null
}

export interface EventRow {
  id: number
  eventId: string
  type: string
  livemode: number | null
  outcome: string
  detail: string | null
  saleId: number | null
  createdAt: number
}

export interface PayoutRow {
  id: number
  partnerId: number
  partnerName: string | null
  currency: string
  amountCents: number
  commissions: number
  status: Payout['status']
  reference: string | null
  createdAt: number
  paidAt: number | null
  canceledAt: number | null
  /** Why the rail refused or returned it (status failed). */
  failureReason: string | null
}

export type PartnerRow = typeof partners.$inferSelect
export type LinkRow = typeof links.$inferSelect

export type LinkCreation = { kind: 'created'; linkId: number } | { kind: 'taken' } | { kind: 'no_partner' }

/**
 * The reads and writes of the dashboard and partner portal pages (src/web). Writes to programs,
 * links and keys drop the catalog's copies (src/db/catalog.ts) like ProgramStore's do.
 */
export class DashboardStore {
  private readonly s
  private readonly salePages: SalePages

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
    private readonly programs: ProgramStore,
  ) {
    this.s = prepare(connection)
    this.salePages = new SalePages(connection.client)
  }

  /** The programs of an account (through its advertiser), oldest first. */
  accountPrograms(accountId: number): Program[] {
    const { db } = this.connection
    return db
      .select({ program: programs })
      .from(programs)
      .innerJoin(advertisers, eq(advertisers.id, programs.advertiserId))
      .where(eq(advertisers.accountId, accountId))
      .orderBy(asc(programs.id))
      .all()
      .map((r) => r.program)
  }

  /** Program `programId` when account `accountId` owns it, else null (another account's program is not found). */
  findOwnedProgram(accountId: number, programId: number): Program | null {
    const { db } = this.connection
    return (
      db
        .select({ program: programs })
        .from(programs)
        .innerJoin(advertisers, eq(advertisers.id, programs.advertiserId))
        .where(and(eq(programs.id, programId), eq(advertisers.accountId, accountId)))
        .get()?.program ?? null
    )
  }

  /** A program by id, or null. */
  findProgramById(programId: number): Program | null {
    const { db } = this.connection
    return db.select().from(programs).where(eq(programs.id, programId)).get() ?? null
  }

  /** The program's current (unrevoked) manage key, or null (the program store's read). */
  currentApiKey(programId: number): ApiKey | null {
    return this.programs.currentKey(programId)
  }

  /** The program's unrevoked track keys, oldest first. */
  trackKeys(programId: number): ApiKey[] {
    return this.programs.listKeys(programId).filter((key) => key.scope === 'track')
  }

  /** The partners of a program, oldest first (the synthetic test partner included). */
  programPartners(programId: number): PartnerRow[] {
    const { db } = this.connection
    return db.select().from(partners).where(eq(partners.programId, programId)).orderBy(asc(partners.id)).all()
  }

  /** The referral links of a program, oldest first. */
  programLinks(programId: number): LinkRow[] {
    const { db } = this.connection
    return db.select().from(links).where(eq(links.programId, programId)).orderBy(asc(links.id)).all()
  }

  /** A partner's own links (through its program's links), oldest first. */
  partnerLinks(programId: number, partnerId: number): LinkRow[] {
    const { db } = this.connection
    return db
      .select()
      .from(links)
      .where(and(eq(links.programId, programId), eq(links.partnerId, partnerId)))
      .orderBy(asc(links.id))
      .all()
  }

  /** A partner by id, or null. */
  findPartner(partnerId: number): PartnerRow | null {
    const { db } = this.connection
    return db.select().from(partners).where(eq(partners.id, partnerId)).get() ?? null
  }

  /** A page of a program's sales created within `range`, newest first, with the attribution record and the partner. */
  salesPage(programId: number, cursor: Cursor, range: TimeRange = {}): Paged<SaleRow> {
    // Sales have no index by program: their blocks are looked up instead (sale-pages.ts).
    const rows = this.salePages.page(
      programId,
      cursor?.id ?? null,
      PAGE + 1,
      (low, high, n) => this.s.sales.all(programId, low, high, n, ...rangeArgs(range)) as SaleRow[],
    )
    return paged(rows)
  }

  /** A page of a program's commission ledger (reversals included) created within `range`, newest first. */
  commissionsPage(programId: number, cursor: Cursor, range: TimeRange = {}, size = PAGE): Paged<LedgerRow> {
    const rows = this.s.commissions.all(programId, ...cursorArgs(cursor), size + 1, ...rangeArgs(range)) as (LedgerRow & {
      flags: string
    })[]
    return paged(
      rows.map((row) => ({ ...row, flags: JSON.parse(row.flags) as FraudFlag[] })),
      size,
    )
  }

  /** A page of one partner's ledger, newest first, with each sale's amount and time (no customer field at all); the cursor is the last entry id. */
  partnerCommissionsPage(partnerId: number, cursor: number | null): Paged<PartnerLedgerRow> {
    const rows = this.s.partnerCommissions.all(partnerId, cursor ?? Number.MAX_SAFE_INTEGER, PAGE + 1) as PartnerLedgerRow[]
    const more = rows.length > PAGE
    const page = more ? rows.slice(0, PAGE) : rows
    return { rows: page, next: more ? String(page[page.length - 1].id) : null }
  }

  /** A page of a program's received processor events with their outcomes, newest first. */
  eventsPage(programId: number, cursor: Cursor): Paged<EventRow> {
    return paged(this.s.events.all(programId, ...cursorArgs(cursor), PAGE + 1) as EventRow[])
  }

  /** Adds a partner to a program; returns its id. */
  createPartner(programId: number, name: string | null, email: string | null, now: number): number {
    const { db } = this.connection
    return db
      .insert(partners)
      .values({ programId, name, ...partnerEmail(email), createdAt: now })
      .returning({ id: partners.id })
      .get().id
  }

  /** Creates a referral link for a partner of the program; short_link's UNIQUE constraint decides `taken`. */
  createLink(programId: number, partnerId: number, shortLink: string, now: number): LinkCreation {
    const { db } = this.connection
    const partner = db
      .select({ id: partners.id })
      .from(partners)
      .where(and(eq(partners.id, partnerId), eq(partners.programId, programId)))
      .get()
    if (!partner) return { kind: 'no_partner' }
    this.catalog.changed()
    try {
      return {
        kind: 'created',
        linkId: db.insert(links).values({ programId, partnerId, shortLink, createdAt: now }).returning({ id: links.id }).get().id,
      }
    } catch (error) {
      if (uniqueViolation(error)?.on === 'short_link') return { kind: 'taken' }
      throw error
    }
  }

  /** Turns a link of the program on or off; false when the program has no such link. */
  setLinkActive(programId: number, linkId: number, active: boolean): boolean {
    const { db } = this.connection
    this.catalog.changed()
    return (
      db
        .update(links)
        .set({ active })
        .where(and(eq(links.id, linkId), eq(links.programId, programId)))
        .returning({ id: links.id })
        .all().length > 0
    )
  }

  /** Changes a program's fields, through the program store (which clears the catalog). */
  updateProgram(programId: number, changes: ProgramChanges): void {
    this.programs.updateProgram(programId, changes)
  }

  /** Regenerates the program's API key (the old one stops at once); returns the new key, shown once. */
  regenerateApiKey(programId: number, now: number): string {
    return this.programs.issueKey(programId, now)
  }

  /** Marks the current key for rotation by `rotateBy`; false when the program has no active key. */
  markKeyRotation(programId: number, now: number, rotateBy: number): boolean {
    return this.programs.markRotation(programId, now, rotateBy) !== null
  }

  /** A page of the program's payouts with partner names, newest first; the cursor is the last payout id. */
  payoutsPage(programId: number, cursor: number | null): { rows: PayoutRow[]; next: string | null } {
    const rows = this.s.payouts.all(programId, cursor ?? Number.MAX_SAFE_INTEGER, PAGE + 1) as PayoutRow[]
    const more = rows.length > PAGE
    const page = more ? rows.slice(0, PAGE) : rows
    return { rows: page, next: more ? String(page[page.length - 1].id) : null }
  }

  /** One partner's pending and paid payouts, newest first (the last hundred). */
  partnerPayouts(programId: number, partnerId: number): Omit<PayoutRow, 'partnerId' | 'partnerName' | 'canceledAt' | 'failureReason'>[] {
    return this.s.partnerPayouts.all(programId, partnerId) as Omit<
      PayoutRow,
      'partnerId' | 'partnerName' | 'canceledAt' | 'failureReason'
    >[]
  }

  /** The program of a payout, or null when there is no such payout. */
  payoutProgram(payoutId: number): number | null {
    const { db } = this.connection
    return db.select({ programId: payouts.programId }).from(payouts).where(eq(payouts.id, payoutId)).get()?.programId ?? null
  }
}
