import { and, desc, eq, lt } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTableWithColumns } from 'drizzle-orm/sqlite-core'
import { Elysia } from 'elysia'
import { commissions, customers, links, partners, processorEvents, programs, sales } from '../../db/schema'
import type { Deps } from '../deps'
import { doc } from '../docs'
import { HttpError } from '../envelope'
import { idParam, listed, page, requireAdmin } from './guard'
import { commissionStatuses } from './payouts'
import { presentRow } from './present'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ProgramTable = SQLiteTableWithColumns<any> & { id: SQLiteColumn; programId: SQLiteColumn }

/** The read routes: each a program's records, newest first, `?limit` and `?cursor` paginated. */
const lists: [string, string, ProgramTable, string][] = [
  ['partners', 'partner', partners as ProgramTable, 'Partners of a program'],
  ['links', 'link', links as ProgramTable, 'Referral links of a program'],
  ['customers', 'customer', customers as ProgramTable, 'Customers (leads and conversions) of a program'],
  ['sales', 'sale', sales as ProgramTable, 'Sales, each with its attribution record (which click, partner, link and rule decided it)'],
  ['commissions', 'commission', commissions as ProgramTable, 'The commission ledger: commissions and their reversals'],
  ['events', 'processor_event', processorEvents as ProgramTable, 'Received payment-processor events and their outcomes'],
]

/** GET /api/v1/admin/programs/:id/{partners,links,customers,sales,commissions,events}. */
export function listAdminRoutes(deps: Deps) {
  const { db } = deps.database
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let app: any = new Elysia({ name: 'admin-lists' }).onBeforeHandle(({ request }) => requireAdmin(deps, request))
  for (const [segment, name, table, summary] of lists) {
    app = app.get(`/api/v1/admin/programs/:id/${segment}`, ({ params, query }: { params: { id: string }; query: Record<string, string | undefined> }) => {
      const programId = idParam(params.id, 'Program')
      const { limit, cursor } = page(query)
      if (!db.select({ id: programs.id }).from(programs).where(eq(programs.id, programId)).get()) {
        throw new HttpError(404, 'Program not found')
      }
      const where = cursor === null ? eq(table.programId, programId) : and(eq(table.programId, programId), lt(table.id, cursor))
      const rows = db.select().from(table).where(where).orderBy(desc(table.id)).limit(limit + 1).all() as { id: number }[]
      // docs/decisions.md, Payouts: the commissions read route shows each entry's status.
      const statuses = segment === 'commissions' ? commissionStatuses(deps, programId, rows.map((r) => r.id)) : null
      return listed(rows, limit, (row) => ({ ...presentRow(name, row as Record<string, unknown>), ...(statuses && { status: statuses.get(row.id) }) }))
    }, { detail: doc(summary, 'operator', { security: 'adminToken' }) })
  }
  return app
}
