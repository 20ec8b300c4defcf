import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { idParam, requireAdmin } from './guard.ts'
import { presentRow } from '../../domain/record.ts'

/** GET /api/v1/admin/sales/:id: one sale with its attribution record, ledger entries and refund. */
export function saleAdminRoutes(deps: Deps) {
  const { lists } = deps.database.stores
  return new Elysia({ name: 'admin-sale' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .get(
      '/api/v1/admin/sales/:id',
      ({ params }) => {
        const id = idParam(params.id, 'Sale')
        const found = lists.saleDetail(id)
        if (!found) throw new HttpError(404, 'Sale not found')
        const { sale, ledger, refund } = found
        // docs/decisions.md, Operator API: a list of one sale, like GET /programs/:id and /payouts/:id.
        const shown = {
          ...presentRow('sale', sale),
          commissions: ledger.map((entry) => presentRow('commission', entry)),
          refund: refund ? presentRow('refund', refund) : null,
        }
        return { data: [shown], error: null, next_cursor: null }
      },
      {
        detail: doc('Show a sale with its attribution record (which click, partner, link and rule decided it)', 'operator', {
          security: 'adminToken',
        }),
      },
    )
}
