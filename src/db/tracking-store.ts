import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { FirstClick } from '../domain/lead.ts'
import type { SaleCustomer } from '../domain/attribution.ts'
import type { Catalog } from './catalog.ts'
import { plainInsert, selectList } from './columns.ts'
import type { Connection } from './open.ts'
import { clicks, customers, links, programs, testFixtures } from './schema.ts'

const p = sql.placeholder

/** The columns TrackingStore.insertClick binds, in its order. */
const clickColumns = [
  clicks.clickId,
  clicks.programId,
  clicks.linkId,
  clicks.partnerId,
  clicks.testMode,
  clicks.ip,
  clicks.userAgent,
  clicks.createdAt,
]

/** A customer row of the plain statements (test_mode stored as 0 or 1), or null. */
function saleCustomer(row: unknown): SaleCustomer | null {
  if (!row) return null
  const customer = row as Omit<SaleCustomer, 'testMode'> & { testMode: number | boolean }
  customer.testMode = customer.testMode === 1
  return customer as SaleCustomer
}

/**
 * The prepared statements of the click and lead paths, and the customer reads of the sale path
 * (docs/decisions.md: hot statements are prepared once; Drizzle's builder re-prepares on every call).
 * Reads return null when nothing matches; the writes run inside the caller's writer unit.
 */
function build({ db, client }: Connection) {
  const customerColumns = {
    // A scalar subquery rather than a LEFT JOIN, and no LIMIT (the two UNIQUE indexes allow one row
    // at most): measured on a bench database, the lookup took 2 µs this way against 9 to 10 µs
    // with either the join or `LIMIT ?`; a plain statement, 1 µs (issue 14, bench/micro.ts).
    id: customers.id,
    status: customers.status,
    partnerId: customers.partnerId,
    partnerProgramId: '(SELECT p."program_id" FROM "partners" p WHERE p."id" = "customers"."partner_id")',
    clickId: customers.clickId,
    linkId: customers.linkId,
    clickedAt: customers.clickedAt,
    leadAt: customers.leadAt,
    convertedAt: customers.convertedAt,
    testMode: customers.testMode,
  }
  const customerBy = (column: typeof customers.customerKey | typeof customers.clickId) =>
    client.prepare(`SELECT ${selectList(customerColumns)} FROM "customers" WHERE "program_id" = ? AND "${column.name}" = ?`)

  const statements = {
    // Only what a click needs: selecting the whole program row costs the hot path ~5 µs in mapping.
    link: db
      .select({
        id: links.id,
        programId: links.programId,
        partnerId: links.partnerId,
        active: links.active,
        windowDays: programs.attributionWindowDays,
        domain: programs.domain,
        allowedOrigins: programs.allowedOrigins,
        // The CLI test chain's own link (docs/cli.md): every click on it is test data, a real visitor's too.
        testFixture: sql<boolean>`EXISTS (SELECT 1 FROM ${testFixtures} WHERE ${testFixtures.linkId} = ${links.id})`.mapWith(Boolean),
      })
      .from(links)
      .leftJoin(programs, eq(programs.id, links.programId))
      .where(eq(links.shortLink, p('shortLink')))
      .prepare(),
    clickKnown: db
      .select({ id: clicks.id })
      .from(clicks)
      .where(and(eq(clicks.clickId, p('clickId')), eq(clicks.programId, p('programId'))))
      .limit(1)
      .prepare(),
    // The click path's one write, as a plain statement (columns.ts, plainInsert).
    insertClick: plainInsert(client, clicks, clickColumns),
    firstClick: db
      .select({
        clickId: clicks.clickId,
        partnerId: clicks.partnerId,
        linkId: clicks.linkId,
        createdAt: clicks.createdAt,
        testMode: clicks.testMode,
      })
      .from(clicks)
      .where(and(eq(clicks.clickId, p('clickId')), eq(clicks.programId, p('programId'))))
      .orderBy(asc(clicks.id))
      .limit(1)
      .prepare(),
    clickProgram: db
      .select({ programId: clicks.programId })
      .from(clicks)
      .where(eq(clicks.clickId, p('clickId')))
      .limit(1)
      .prepare(),
    clickElsewhere: db
      .select({ id: clicks.id })
      .from(clicks)
      .where(and(eq(clicks.clickId, p('clickId')), ne(clicks.programId, p('programId'))))
      .limit(1)
      .prepare(),
    keyElsewhere: db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.customerKey, p('key')), ne(customers.programId, p('programId'))))
      .limit(1)
      .prepare(),
    byKey: customerBy(customers.customerKey),
    byClick: customerBy(customers.clickId),
    convert: db
      .update(customers)
      .set({
        convertedAt: p('now') as never,
        // A sale does not settle a provisional lead (docs/api.md, Customer states): only `lead` moves on.
        status: sql`CASE ${customers.status} WHEN 'lead' THEN 'converted' ELSE ${customers.status} END`,
      })
      .where(eq(customers.id, p('id')))
      .prepare(),
  }
  return statements
}

type Statements = ReturnType<typeof build>

export interface NewCustomer {
  programId: number
  customerKey: string | null
  email: string | null
  status: 'provisional' | 'lead' | 'converted'
  click: FirstClick
  testMode: boolean
  leadAt: number | null
  convertedAt: number | null
  now: number
}

/** Reads and writes of clicks and customers over one database; writes run inside the caller's writer unit. */
export class TrackingStore {
  private readonly s: Statements

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {
    this.s = build(connection)
  }

  /** The referral link named by `aff`, with its program's window and origins (null when the link names none). */
  findLink(shortLink: string) {
    return this.catalog.row(`link:${shortLink}`, () => this.s.link.get({ shortLink }) ?? null)
  }

  /** Whether click_id was already issued in the program (first click wins, docs/decisions.md). */
  clickKnown(programId: number, clickId: string): boolean {
    return this.s.clickKnown.get({ programId, clickId }) !== undefined
  }

  insertClick(values: {
    clickId: string
    programId: number
    linkId: number
    partnerId: number
    testMode: boolean
    ip: string | null
    userAgent: string | null
    createdAt: number
  }): void {
    this.s.insertClick.run(
      values.clickId,
      values.programId,
      values.linkId,
      values.partnerId,
      values.testMode ? 1 : 0,
      values.ip,
      values.userAgent,
      values.createdAt,
    )
  }

  /** The earliest click row of click_id in the program: the visitor's first click. */
  firstClick(programId: number, clickId: string): FirstClick | null {
    return this.s.firstClick.get({ programId, clickId }) ?? null
  }

  /** The program a click_id was issued in (browser-mode leads carry no key). */
  programOfClick(clickId: string): number | null {
    return this.s.clickProgram.get({ clickId })?.programId ?? null
  }

  /** Whether click_id or customer_key is known, but only in programs other than `programId`. */
  knownElsewhere(programId: number, clickId: string | null, customerKey: string | null): boolean {
    return (
      (clickId !== null && this.s.clickElsewhere.get({ programId, clickId }) !== undefined) ||
      (customerKey !== null && this.s.keyElsewhere.get({ programId, key: customerKey }) !== undefined)
    )
  }

  customerByKey(programId: number, customerKey: string): SaleCustomer | null {
    return saleCustomer(this.s.byKey.get(programId, customerKey))
  }

  customerByClick(programId: number, clickId: string): SaleCustomer | null {
    return saleCustomer(this.s.byClick.get(programId, clickId))
  }

  /** Creates a customer attributed to its first click (test data when that click is); returns its id. */
  insertCustomer(c: NewCustomer): number {
    return this.connection.db
      .insert(customers)
      .values({
        programId: c.programId,
        customerKey: c.customerKey,
        email: c.email,
        status: c.status,
        testMode: c.testMode || c.click.testMode,
        clickId: c.click.clickId,
        partnerId: c.click.partnerId,
        linkId: c.click.linkId,
        clickedAt: c.click.createdAt,
        leadAt: c.leadAt,
        convertedAt: c.convertedAt,
        createdAt: c.now,
      })
      .returning({ id: customers.id })
      .get().id
  }

  /** Settles a provisional lead: it becomes `status`, keeps customer_key and email, and counts from now. */
  settleCustomer(id: number, status: 'lead' | 'converted', customerKey: string | null, email: string | null, now: number): void {
    const changes = { status, leadAt: now, ...(customerKey !== null ? { customerKey } : {}), ...(email !== null ? { email } : {}) }
    this.connection.db.update(customers).set(changes).where(eq(customers.id, id)).run()
  }

  /** Records the customer's first attributed sale. */
  convertCustomer(id: number, now: number): void {
    this.s.convert.run({ id, now })
  }
}
