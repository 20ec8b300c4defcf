import { Elysia } from 'elysia'
import type { Coupon } from '../../db/schema.ts'
import { coupon as messages, partner } from '../../domain/messages.ts'
import { presentRow } from '../../domain/record.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, requireAdmin } from './guard.ts'
import { CreateCoupon } from './schemas.ts'

const checkCreate = bodyChecker(CreateCoupon)

/** A coupon as the operator API shows it, without its lower-case key. */
export function presentCoupon(coupon: Coupon): Record<string, unknown> {
  const { codeKey: _, ...shown } = coupon
  return presentRow('coupon', shown)
}

/**
 * The operator API's coupons (docs/decisions.md, Attribution without the cookie): add one to a
 * partner, list a program's, delete one. A sale naming a coupon attributes a customer that has
 * no partner yet (tracking/sale.ts).
 */
export function couponAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  return new Elysia({ name: 'admin-coupons' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/partners/:partner_id/coupons',
      async ({ params, body, set }) => {
        const programId = idParam(params.id, 'Program')
        const partnerId = idParam(params.partner_id, 'Partner')
        const input = checkCreate(body)
        const created = await writer.run(() => {
          if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
          if (!stores.partners.find(programId, partnerId)) throw new HttpError(404, partner.notFound)
          return stores.coupons.create({
            programId,
            partnerId,
            code: input.code,
            stripePromotionCode: input.stripe_promotion_code ?? null,
            createdAt: deps.clock.now(),
          })
        })
        if (created === 'taken') throw new HttpError(409, messages.taken)
        set.status = 201
        return ok({ coupon_id: created.id, code: created.code })
      },
      {
        detail: doc('Add a coupon code to a partner (sales naming it attribute customers who have no partner yet)', 'operator', {
          security: 'adminToken',
          body: CreateCoupon,
        }),
      },
    )
    .get(
      '/api/v1/admin/programs/:id/coupons',
      ({ params }) => {
        const programId = idParam(params.id, 'Program')
        if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        return { data: stores.coupons.list(programId).map(presentCoupon), error: null, next_cursor: null }
      },
      { detail: doc("A program's coupons, oldest first", 'operator', { security: 'adminToken' }) },
    )
    .delete(
      '/api/v1/admin/coupons/:id',
      async ({ params, body }) => {
        noBody(body)
        const couponId = idParam(params.id, 'Coupon')
        const removed = await writer.run(() => stores.coupons.remove(couponId))
        if (!removed) throw new HttpError(404, messages.notFound)
        return ok({ coupon_id: couponId, deleted: true })
      },
      { detail: doc('Delete a coupon: later sales naming it are judged as without it', 'operator', { security: 'adminToken' }) },
    )
}
