import { and, asc, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTableWithColumns } from 'drizzle-orm/sqlite-core'
import type { Connection } from './open.ts'
import { SalePages } from './sale-pages.ts'
import { commissions, customers, links, partners, processorEvents, programs, refunds, sales, type Commission, type Sale } from './schema.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ProgramTable = SQLiteTableWithColumns<any> & { id: SQLiteColumn; programId: SQLiteColumn }

/** The operator API's lists, each a table of per-program records. */
const tables = {
  partners: partners as ProgramTable,
  links: links as ProgramTable,
  customers: customers as ProgramTable,
  sales: sales as ProgramTable,
  commissions: commissions as ProgramTable,
  events: processorEvents as ProgramTable,
}

export type ListName = keyof typeof tables

/** Created at or after `from` and before `to` (epoch ms; either may be absent): the read routes' ?from= and ?to=. */
export interface TimeRange {
  from?: number
  to?: number
}

/** A sale as the sales CSV lists it: the row with its customer's key and partner. */
export type ExportedSale = Sale & { customerKey: string | null; partnerId: number | null }

const ALL = Number.MAX_SAFE_INTEGER

const within = (column: SQLiteColumn, range: TimeRange): SQL | undefined =>
  and(range.from === undefined ? undefined : gte(column, range.from), range.to === undefined ? undefined : lt(column, range.to))

/** The operator API's reads: a program's records page by page, and one sale with its ledger. */
export class ListStore {
  private readonly salePages: SalePages

  constructor(private readonly connection: Connection) {
    this.salePages = new SalePages(connection.client)
  }

  programExists(id: number): boolean {
    return this.connection.db.select({ id: programs.id }).from(programs).where(eq(programs.id, id)).get() !== undefined
  }

  /**
   * Up to `limit` rows of a program's `list`, newest first, with ids below `cursor` when given;
   * sales and commissions created within `range`.
   */
  page(
    list: ListName,
    programId: number,
    limit: number,
    cursor: number | null,
    range: TimeRange = {},
  ): ({ id: number } & Record<string, unknown>)[] {
    // Sales have no index by program: their blocks are looked up instead (sale-pages.ts).
    if (list === 'sales') return this.salesOf(programId, cursor, limit, range)
    const table = tables[list]
    const where = and(
      eq(table.programId, programId),
      cursor === null ? undefined : lt(table.id, cursor),
      list === 'commissions' ? within(commissions.createdAt, range) : undefined,
    )
    return this.connection.db.select().from(table).where(where).orderBy(desc(table.id)).limit(limit).all() as ({ id: number } & Record<
      string,
      unknown
    >)[]
  }

  /** Every sale of a program created within `range`, newest first, with its customer's key and partner (the sales CSV). */
  exportSales(programId: number, range: TimeRange): ExportedSale[] {
    const sold = this.salesOf(programId, null, ALL, range)
    const { db } = this.connection
    const owners = new Map(
      db
        .select({ id: customers.id, customerKey: customers.customerKey, partnerId: customers.partnerId })
        .from(customers)
        .where(eq(customers.programId, programId))
        .all()
        .map((c) => [c.id, c]),
    )
    return sold.map((sale) => {
      const owner = sale.customerId === null ? undefined : owners.get(sale.customerId)
      return { ...sale, customerKey: owner?.customerKey ?? null, partnerId: owner?.partnerId ?? null }
    })
  }

  /** Every ledger entry of a program created within `range`, newest first (the commissions CSV). */
  exportCommissions(programId: number, range: TimeRange): Commission[] {
    return this.connection.db
      .select()
      .from(commissions)
      .where(and(eq(commissions.programId, programId), within(commissions.createdAt, range)))
      .orderBy(desc(commissions.id))
      .all()
  }

  private salesOf(programId: number, cursor: number | null, limit: number, range: TimeRange): Sale[] {
    const { db } = this.connection
    return this.salePages.page(programId, cursor, limit, (low, high, n) =>
      db
        .select()
        .from(sales)
        .where(and(eq(sales.programId, programId), gte(sales.id, low), lt(sales.id, high), within(sales.createdAt, range)))
        .orderBy(desc(sales.id))
        .limit(n)
        .all(),
    )
  }

  /** A sale with its ledger entries (oldest first) and its refund; null when no sale has that id. */
  saleDetail(id: number): { sale: Sale; ledger: Commission[]; refund: typeof refunds.$inferSelect | null } | null {
    const { db } = this.connection
    const sale = db.select().from(sales).where(eq(sales.id, id)).get()
    if (!sale) return null
    const ledger = db.select().from(commissions).where(eq(commissions.saleId, id)).orderBy(asc(commissions.id)).all()
    const refund = db.select().from(refunds).where(eq(refunds.saleId, id)).get() ?? null
    return { sale, ledger, refund }
  }
}
