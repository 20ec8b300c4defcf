import { Elysia } from 'elysia'
import type { ListName } from '../../db/list-store.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { idParam, listed, page, requireAdmin } from './guard.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { presentRow } from './present.ts'

/** The read routes: each a program's records, newest first, `?limit` and `?cursor` paginated. */
const lists: [ListName, string, string][] = [
  ['partners', 'partner', 'Partners of a program'],
  ['links', 'link', 'Referral links of a program'],
  ['customers', 'customer', 'Customers (leads and conversions) of a program'],
  ['sales', 'sale', 'Sales, each with its attribution record (which click, partner, link and rule decided it)'],
  ['commissions', 'commission', 'The commission ledger: commissions and their reversals'],
  ['events', 'processor_event', 'Received payment-processor events and their outcomes'],
]

/** GET /api/v1/admin/programs/:id/{partners,links,customers,sales,commissions,events}. */
export function listAdminRoutes(deps: Deps) {
  const store = deps.database.stores.lists
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let app: any = new Elysia({ name: 'admin-lists' }).onBeforeHandle(({ request }) => requireAdmin(deps, request))
  for (const [segment, name, summary] of lists) {
    app = app.get(
      `/api/v1/admin/programs/:id/${segment}`,
      ({ params, query }: { params: { id: string }; query: Record<string, string | undefined> }) => {
        const programId = idParam(params.id, 'Program')
        const { limit, cursor } = page(query)
        if (!store.programExists(programId)) throw new HttpError(404, 'Program not found')
        const rows = store.page(segment, programId, limit + 1, cursor)
        // docs/decisions.md, Payouts: the commissions read route shows each entry's status.
        const statuses =
          segment === 'commissions'
            ? commissionStatuses(
                deps,
                programId,
                rows.map((r) => r.id),
              )
            : null
        return listed(rows, limit, (row) => ({ ...presentRow(name, row), ...(statuses && { status: statuses.get(row.id) }) }))
      },
      { detail: doc(summary, 'operator', { security: 'adminToken' }) },
    )
  }
  return app
}
