import { Elysia } from 'elysia'
import { group as messages } from '../../domain/messages.ts'
import { discountFor } from '../../tracking/discount.ts'
import type { Deps } from '../deps.ts'
import { requireProgramKey } from '../pipeline/auth.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'

const MAX_ID = 255

/**
 * GET /api/v1/programs/me/discount?click_id=… or ?customer_key=… (docs/decisions.md, Groups:
 * two-sided): the discount the visitor gets through their partner's group, for the advertiser's
 * server to pass to its checkout (Stripe Checkout's `discounts: [{ coupon }]`). A program key of
 * either scope (a track key too: it sits on the same web server as the checkout).
 */
export function discountRoutes(deps: Deps) {
  return new Elysia({ name: 'discount' }).get(
    '/api/v1/programs/me/discount',
    ({ request, query }) => {
      const { program } = requireProgramKey(deps, request, 'sale')
      const read = (name: 'click_id' | 'customer_key') => {
        const value = typeof query[name] === 'string' ? query[name].trim() : ''
        if (value.length > MAX_ID) throw new HttpError(400, `${name} must be at most ${MAX_ID} characters`)
        return value === '' ? null : value
      }
      const clickId = read('click_id')
      const customerKey = read('customer_key')
      if (clickId === null && customerKey === null) throw new HttpError(400, messages.discountLookup)
      return ok(discountFor(deps, program, { clickId, customerKey }))
    },
    {
      detail: doc("The discount a visitor gets through their partner's group", 'tracking', {
        security: 'programKey',
        description:
          "Query: click_id (the svc_click_id cookie) or customer_key. Answers { data: { partner: { name }, group_id, discount: { coupon_id, description } }, error: null }; discount is null when the visitor came through no partner, or the partner's group gives none (partner and group_id are null too when there is no partner). coupon_id is the processor's coupon id: pass it to Stripe Checkout as discounts: [{ coupon }]. A track key may call it.",
      }),
    },
  )
}
