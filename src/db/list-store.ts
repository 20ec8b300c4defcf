import { and, asc, desc, eq, gte, lt } from 'drizzle-orm'
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

/** The operator API's reads: a program's records page by page, and one sale with its ledger. */
export class ListStore {
  private readonly salePages: SalePages

  constructor(private readonly connection: Connection) {
    this.salePages = new SalePages(connection.client)
  }

  programExists(id: number): boolean {
    return this.connection.db.select({ id: programs.id }).from(programs).where(eq(programs.id, id)).get() !== undefined
  }

  /** Up to `limit` rows of a program's `list`, newest first, with ids below `cursor` when given. */
  page(list: ListName, programId: number, limit: number, cursor: number | null): ({ id: number } & Record<string, unknown>)[] {
    // Sales have no index by program: their blocks are looked up instead (sale-pages.ts).
    if (list === 'sales') {
      const { db } = this.connection
      return this.salePages.page(programId, cursor, limit, (low, high, n) =>
        db
          .select()
          .from(sales)
          .where(and(eq(sales.programId, programId), gte(sales.id, low), lt(sales.id, high)))
          .orderBy(desc(sales.id))
          .limit(n)
          .all(),
      )
    }
    const table = tables[list]
    const where = cursor === null ? eq(table.programId, programId) : and(eq(table.programId, programId), lt(table.id, cursor))
    return this.connection.db.select().from(table).where(where).orderBy(desc(table.id)).limit(limit).all() as ({ id: number } & Record<
      string,
      unknown
    >)[]
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
