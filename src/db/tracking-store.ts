import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { CLICK_ID_LENGTH, ClickIds, MAX_CLICK_ROW } from '../domain/click-id.ts'
import type { FirstClick } from '../domain/lead.ts'
import type { SaleCustomer } from '../domain/attribution.ts'
import type { Catalog } from './catalog.ts'
import { plainInsert, selectList } from './columns.ts'
import { DAY_MS } from './figure-store.ts'
import type { Connection } from './open.ts'
import { clicks, customers, links, partners, programs, settings, testFixtures } from './schema.ts'

const p = sql.placeholder

/** The columns TrackingStore.insertClick binds, in its order. */
const clickColumns = [
  clicks.id,
  clicks.clickId,
  clicks.programId,
  clicks.linkId,
  clicks.partnerId,
  clicks.testMode,
  clicks.ip,
  clicks.userAgent,
  clicks.createdAt,
  clicks.signals,
]

/** A key of daily_counts and the clicks a batch adds to it. */
interface ClickCount {
  programId: number
  partnerId: number
  day: number
  test: number
  clicks: number
  unique: number
}

/** A row of the plain statements with test_mode (stored as 0 or 1) made a boolean, or null. */
function withTestMode<T extends { testMode: boolean }>(row: unknown): T | null {
  if (!row) return null
  const read = row as Omit<T, 'testMode'> & { testMode: number | boolean }
  read.testMode = read.testMode === 1
  return read as unknown as T
}

/**
 * The prepared statements of the click and lead paths, and the customer reads of the sale path
 * (docs/decisions.md: hot statements are prepared once; Drizzle's builder re-prepares on every call).
 * Reads return null when nothing matches; the writes run inside the caller's writer unit.
 */
function build({ db, client }: Connection) {
  const firstClickList = selectList({
    programId: clicks.programId,
    clickId: clicks.clickId,
    partnerId: clicks.partnerId,
    linkId: clicks.linkId,
    createdAt: clicks.createdAt,
    testMode: clicks.testMode,
    ip: clicks.ip,
    signals: clicks.signals,
  })
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
    email: customers.email,
    leadIpHash: customers.leadIpHash,
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
        partnerActive:
          sql<boolean>`EXISTS (SELECT 1 FROM ${partners} WHERE ${partners.id} = ${links.partnerId} AND ${partners.status} = 'active' AND ${partners.deletedAt} IS NULL)`.mapWith(
            Boolean,
          ),
        windowDays: programs.attributionWindowDays,
        domain: programs.domain,
        siteUrl: programs.siteUrl,
        allowedOrigins: programs.allowedOrigins,
        /** The query parameters the program's links may arrive by (docs/imports.md). */
        linkParams: programs.linkParams,
        /** The tool an import brought the link from (null: svc's own, found by `aff` only). */
        source: links.source,
        // The CLI test chain's own link (docs/cli.md): every click on it is test data, a real visitor's too.
        testFixture: sql<boolean>`EXISTS (SELECT 1 FROM ${testFixtures} WHERE ${testFixtures.linkId} = ${links.id})`.mapWith(Boolean),
      })
      .from(links)
      .leftJoin(programs, eq(programs.id, links.programId))
      .where(eq(links.shortLink, p('shortLink')))
      .prepare(),
    // The click path's one write, as a plain statement (columns.ts, plainInsert).
    insertClick: plainInsert(client, clicks, clickColumns),
    // A click_id's first row: by the row its id carries (click-id.ts), or, for an id issued before
    // migration 0012, by the partial index, whose condition the query repeats so that it is used.
    clickAt: client.prepare(`SELECT ${firstClickList} FROM "clicks" WHERE "id" = ? AND "click_id" = ?`),
    legacyClick: client.prepare(
      `SELECT ${firstClickList} FROM "clicks" WHERE "click_id" = ? AND length("click_id") <> ${CLICK_ID_LENGTH} ORDER BY "id" LIMIT 1`,
    ),
    lastClickRow: client.prepare('SELECT max("id") AS "row" FROM "clicks"'),
    // daily_counts' clicks (the dashboard's rollup): a batch's clicks of one key, written once.
    countClicks: client.prepare(
      'INSERT INTO "daily_counts" ("program_id", "partner_id", "day", "test_mode", "clicks", "unique_clicks") VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT ("program_id", "partner_id", "day", "test_mode") DO UPDATE SET "clicks" = "clicks" + excluded."clicks", ' +
        '"unique_clicks" = "unique_clicks" + excluded."unique_clicks"',
    ),
    // A suspicious repeat click marks its visitor's first row too (TrackingStore.addClickSignals).
    addSignals: client.prepare('UPDATE "clicks" SET "signals" = coalesce("signals", 0) | ? WHERE "id" = ?'),
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
  /** The lead's IP as a keyed hash (src/tracking/ip-hash.ts), for the same_ip signal. */
  leadIpHash?: string | null
}

/** Reads and writes of clicks and customers over one database; writes run inside the caller's writer unit. */
export class TrackingStore {
  private readonly s: Statements
  private ids: ClickIds | null = null
  /** The row id the next click takes; read from the table at its first click (0: not read yet). */
  private nextRow = 0
  /** The clicks of the batch now running, by daily_counts key, written before its COMMIT. */
  private readonly batchClicks = new Map<string, ClickCount>()

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {
    this.s = build(connection)
    connection.writer.beforeCommit(() => this.writeClickCounts())
  }

  /**
   * Counts a stored click in daily_counts, in the same transaction as its row. In a single-write
   * unit (the click route's) the count waits for the end of the batch, which writes each key once:
   * a batch's clicks are mostly of a few links, and an upsert per click was a tenth of its cost
   * (issue 14). Elsewhere (a unit with its own SAVEPOINT) it is written at once, so that a rolled
   * back unit takes its count with it.
   */
  private countClick(programId: number, partnerId: number, createdAt: number, testMode: boolean, unique: boolean): void {
    const day = Math.floor(createdAt / DAY_MS)
    const test = testMode ? 1 : 0
    const one = unique ? 1 : 0
    if (!this.connection.writer.inSingleWrite) {
      this.s.countClicks.run(programId, partnerId, day, test, 1, one)
      return
    }
    const key = `${programId}:${partnerId}:${day}:${test}`
    const counted = this.batchClicks.get(key)
    if (counted) {
      counted.clicks++
      counted.unique += one
    } else this.batchClicks.set(key, { programId, partnerId, day, test, clicks: 1, unique: one })
  }

  private writeClickCounts(): void {
    try {
      for (const c of this.batchClicks.values()) this.s.countClicks.run(c.programId, c.partnerId, c.day, c.test, c.clicks, c.unique)
    } finally {
      // Emptied whatever happens: a batch that fails here is rolled back whole, its counts with it.
      this.batchClicks.clear()
    }
  }

  /** The click id codec under this database's key (migration 0012 draws it), made at first use. */
  private clickIds(): ClickIds {
    if (this.ids) return this.ids
    const stored = this.connection.db.select().from(settings).where(eq(settings.key, 'click_id_key')).get()
    if (!stored) throw new Error('settings has no click_id_key: the database was not migrated')
    return (this.ids = new ClickIds(stored.value))
  }

  /** The first click row of click_id (any program), whatever shape of id it was issued in. */
  private clickRow(clickId: string): (FirstClick & { programId: number }) | null {
    const row = this.clickIds().rowOf(clickId)
    const found =
      row !== null ? this.s.clickAt.get(row, clickId) : clickId.length !== CLICK_ID_LENGTH ? this.s.legacyClick.get(clickId) : null
    return withTestMode<FirstClick & { programId: number }>(found)
  }

  /** A customer row by id, as the customers read route lists it; null when none. */
  customerRow(id: number): typeof customers.$inferSelect | null {
    return this.connection.db.select().from(customers).where(eq(customers.id, id)).get() ?? null
  }

  /** The referral link named by `aff`, with its program's window and origins (null when the link names none). */
  findLink(shortLink: string) {
    return this.catalog.row(`link:${shortLink}`, () => this.s.link.get({ shortLink }) ?? null)
  }

  /**
   * Stores a click and returns its click_id: `clickId` when the visitor's id is repeated (a
   * returning visitor), else a new id sealing the row the click takes. Rows are numbered here, one
   * past the table's last; a number taken by a batch that rolled back is simply never used.
   */
  insertClick(values: {
    clickId: string | null
    programId: number
    linkId: number
    partnerId: number
    testMode: boolean
    ip: string | null
    userAgent: string | null
    createdAt: number
    /** domain/fraud.ts CLICK_SIGNALS bits, null for none. */
    signals: number | null
    /** The first click of its IP on its link this hour (daily_counts.unique_clicks). */
    unique: boolean
  }): string {
    if (this.nextRow === 0) this.nextRow = this.lastClickRow() + 1
    const row = this.nextRow++
    try {
      return this.insertClickAt(row, values)
    } catch (error) {
      // Another writer took the row (a tool on the same file): number again from the table, once.
      const last = this.lastClickRow()
      if (last < row) throw error
      this.nextRow = last + 2
      return this.insertClickAt(last + 1, values)
    }
  }

  private lastClickRow(): number {
    return (this.s.lastClickRow.get() as { row: number | null }).row ?? 0
  }

  private insertClickAt(row: number, values: Parameters<TrackingStore['insertClick']>[0]): string {
    if (row > MAX_CLICK_ROW) throw new RangeError('the clicks table is full')
    const clickId = values.clickId ?? this.clickIds().issue(row)
    this.s.insertClick.run(
      row,
      clickId,
      values.programId,
      values.linkId,
      values.partnerId,
      values.testMode ? 1 : 0,
      values.ip,
      values.userAgent,
      values.createdAt,
      values.signals,
    )
    this.countClick(values.programId, values.partnerId, values.createdAt, values.testMode, values.unique)
    return clickId
  }

  /** Adds signal bits to click_id's first row: a repeat visitor's suspicious click marks the click that attributes it. */
  addClickSignals(clickId: string, signals: number): void {
    // Ids issued before migration 0012 carry no row: their visitors' first clicks are left as they are.
    const row = this.clickIds().rowOf(clickId)
    if (row !== null) this.s.addSignals.run(signals, row)
  }

  /** The earliest click row of click_id in the program: the visitor's first click. */
  firstClick(programId: number, clickId: string): FirstClick | null {
    const click = this.clickRow(clickId)
    return click?.programId === programId ? click : null
  }

  /** The program a click_id was issued in (browser-mode leads carry no key). */
  programOfClick(clickId: string): number | null {
    return this.clickRow(clickId)?.programId ?? null
  }

  /** Whether click_id or customer_key is known, but only in programs other than `programId`. */
  knownElsewhere(programId: number, clickId: string | null, customerKey: string | null): boolean {
    return (
      // Every row of a click_id is in the program that issued it (a visitor's id is repeated only there).
      (clickId !== null && (this.clickRow(clickId)?.programId ?? programId) !== programId) ||
      (customerKey !== null && this.s.keyElsewhere.get({ programId, key: customerKey }) !== undefined)
    )
  }

  customerByKey(programId: number, customerKey: string): SaleCustomer | null {
    return withTestMode<SaleCustomer>(this.s.byKey.get(programId, customerKey))
  }

  customerByClick(programId: number, clickId: string): SaleCustomer | null {
    return withTestMode<SaleCustomer>(this.s.byClick.get(programId, clickId))
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
        leadIpHash: c.leadIpHash ?? null,
      })
      .returning({ id: customers.id })
      .get().id
  }

  /** A customer attributed by a coupon (no click): converted by the sale that named it. */
  insertCouponCustomer(c: { programId: number; customerKey: string | null; partnerId: number; testMode: boolean; now: number }): number {
    return this.connection.db
      .insert(customers)
      .values({
        programId: c.programId,
        customerKey: c.customerKey,
        status: 'converted',
        testMode: c.testMode,
        partnerId: c.partnerId,
        convertedAt: c.now,
        createdAt: c.now,
      })
      .returning({ id: customers.id })
      .get().id
  }

  /** Gives a customer without a partner the partner of the coupon its sale named. */
  assignPartner(customerId: number, partnerId: number): void {
    this.connection.db
      .update(customers)
      .set({ partnerId })
      .where(and(eq(customers.id, customerId), isNull(customers.partnerId)))
      .run()
  }

  /** Settles a provisional lead: it becomes `status`, keeps customer_key, email and the lead's IP hash, and counts from now. */
  settleCustomer(
    id: number,
    status: 'lead' | 'converted',
    customerKey: string | null,
    email: string | null,
    now: number,
    leadIpHash: string | null = null,
  ): void {
    const changes = {
      status,
      leadAt: now,
      ...(customerKey !== null ? { customerKey } : {}),
      ...(email !== null ? { email } : {}),
      ...(leadIpHash !== null ? { leadIpHash } : {}),
    }
    this.connection.db.update(customers).set(changes).where(eq(customers.id, id)).run()
  }

  /** Records the customer's first attributed sale. */
  convertCustomer(id: number, now: number): void {
    this.s.convert.run({ id, now })
  }
}
