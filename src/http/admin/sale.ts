import { asc, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { commissions, refunds, sales } from '../../db/schema'
import type { Deps } from '../deps'
import { doc } from '../docs'
import { HttpError, ok } from '../envelope'
import { idParam, requireAdmin } from './guard'
import { presentRow } from './present'

/** GET /api/v1/admin/sales/:id: one sale with its attribution record, ledger entries and refund. */
export function saleAdminRoutes(deps: Deps) {
  const { db } = deps.database
  return new Elysia({ name: 'admin-sale' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .get('/api/v1/admin/sales/:id', ({ params }) => {
      const id = idParam(params.id, 'Sale')
      const sale = db.select().from(sales).where(eq(sales.id, id)).get()
      if (!sale) throw new HttpError(404, 'Sale not found')
      const ledger = db.select().from(commissions).where(eq(commissions.saleId, id)).orderBy(asc(commissions.id)).all()
      const refund = db.select().from(refunds).where(eq(refunds.saleId, id)).get()
      return ok({
        ...presentRow('sale', sale),
        commissions: ledger.map((entry) => presentRow('commission', entry)),
        refund: refund ? presentRow('refund', refund) : null,
      })
    }, { detail: doc('Show a sale with its attribution record (which click, partner, link and rule decided it)', 'operator', { security: 'adminToken' }) })
}
