import { Elysia } from 'elysia'
import type { ListName } from '../../db/list-store.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { commissionStatusOf, partnerFilterOf, timeRangeOf } from '../pipeline/filters.ts'
import { idParam, listed, page, requireAdmin } from './guard.ts'
import { presentPartner } from './present.ts'
import { presentRow } from '../../domain/record.ts'

type Query = Record<string, string | undefined>
type Row = { id: number } & Record<string, unknown>

/** The read routes: each a program's records, newest first, `?limit` and `?cursor` paginated. */
const lists: [ListName, string, string][] = [
  ['partners', 'partner', 'Partners of a program; ?status= and ?q= (part of the name or email, any case) filter them'],
  ['links', 'link', 'Referral links of a program'],
  ['customers', 'customer', 'Customers (leads and conversions) of a program'],
  ['sales', 'sale', 'Sales, each with its attribution record; ?from= and ?to= (ISO 8601 dates, inclusive, UTC)'],
  ['commissions', 'commission', 'The commission ledger with each entry status; ?from=, ?to= and ?status= filter it'],
  ['events', 'processor_event', 'Received payment-processor events and their outcomes'],
]

/** GET /api/v1/admin/programs/:id/{partners,links,customers,sales,commissions,events}. */
export function listAdminRoutes(deps: Deps) {
  const { lists: store, partners } = deps.database.stores

  /**
   * One page of ledger entries with their status. A status filter is on a derived value, so
   * entries are read a page at a time until `limit + 1` match or none are left.
   */
  const commissionPage = (programId: number, query: Query, limit: number, cursor: number | null): Row[] => {
    const range = timeRangeOf(query)
    const wanted = commissionStatusOf(query)
    const out: Row[] = []
    let below = cursor
    for (;;) {
      const rows = store.page('commissions', programId, wanted === undefined ? limit + 1 : Math.max(limit + 1, 200), below, range)
      const statuses = commissionStatuses(
        deps,
        programId,
        rows.map((r) => r.id),
      )
      for (const row of rows) {
        const status = statuses.get(row.id)
        if (wanted === undefined || status === wanted) out.push({ ...row, status })
        if (out.length > limit) return out
      }
      if (rows.length === 0 || wanted === undefined) return out
      below = rows[rows.length - 1]!.id
    }
  }

  const read = (segment: ListName, programId: number, query: Query, limit: number, cursor: number | null): Row[] => {
    if (segment === 'partners') return partners.page(programId, partnerFilterOf(query), limit + 1, cursor)
    if (segment === 'commissions') return commissionPage(programId, query, limit, cursor)
    return store.page(segment, programId, limit + 1, cursor, segment === 'sales' ? timeRangeOf(query) : {})
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let app: any = new Elysia({ name: 'admin-lists' }).onBeforeHandle(({ request }) => requireAdmin(deps, request))
  for (const [segment, name, summary] of lists) {
    app = app.get(
      `/api/v1/admin/programs/:id/${segment}`,
      ({ params, query }: { params: { id: string }; query: Query }) => {
        const programId = idParam(params.id, 'Program')
        const { limit, cursor } = page(query)
        if (!store.programExists(programId)) throw new HttpError(404, 'Program not found')
        const rows = read(segment, programId, query, limit, cursor)
        return listed(rows, limit, (row) => (segment === 'partners' ? presentPartner(row as never) : presentRow(name, row)))
      },
      { detail: doc(summary, 'operator', { security: 'adminToken' }) },
    )
  }
  return app
}
