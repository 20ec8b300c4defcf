import { bool, data, enumOf, int, nullable, obj, ref, str, time } from './openapi-schema.ts'
import { admin, adminBody } from './admin-answers.ts'
import type { Route } from './route-table.ts'

// The rows of the route table for partner groups, the two-sided discount and bonuses
// (docs/decisions.md, Groups): route-table.ts spreads them in.

const commissionType = enumOf('percent', 'fixed', 'recurring_percent', 'recurring_fixed')
const discount = obj({
  coupon_id: { ...str, description: "The processor's coupon id (Stripe Checkout's discounts: [{ coupon }]), not an svc coupon" },
  description: { ...str, description: 'What the audience gets, in words ("20% off the first year")' },
})

/** A group as every read shows it: null terms are the program's. */
const group = obj({
  group_id: int,
  program_id: int,
  name: str,
  commission_type: nullable(commissionType),
  commission_rate: nullable({ type: 'number' }),
  recurring_months: nullable(int),
  holding_period_days: nullable(int),
  partner_signup: nullable(enumOf('off', 'approval', 'open')),
  created_at: time,
  discount: nullable(discount),
  partners: { ...int, description: 'How many partners are in it' },
})

export const groupRows: Record<string, Route> = {
  'GET /api/v1/programs/me/discount': {
    id: 'getDiscount',
    limit: 'discount',
    rotation: true,
    query: [
      { name: 'click_id', required: false, description: 'The svc_click_id cookie (one of click_id / customer_key)' },
      { name: 'customer_key', required: false, description: "The advertiser's stable customer id (one of click_id / customer_key)" },
    ],
    body: data(obj({ partner: nullable(obj({ name: nullable(str) })), group_id: nullable(int), discount: nullable(discount) })),
    errors: {
      400: 'click_id or customer_key is required',
      401: 'Missing, malformed or unknown API key',
      429: 'rate_limited',
      500: 'Internal error',
    },
    example: {
      data: { partner: { name: 'Ada' }, group_id: 2, discount: { coupon_id: 'INFLUENCER20', description: '20% off the first year' } },
      error: null,
    },
  },
  'POST /api/v1/admin/programs/:id/groups': {
    id: 'createGroup',
    request: {
      name: 'Influencers',
      commission_type: 'recurring_percent',
      commission_rate: 30,
      discount: { coupon_id: 'INFLUENCER20', description: '20% off the first year' },
      partner_signup: 'approval',
    },
    status: 201,
    body: data(group),
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/groups': {
    id: 'listGroups',
    body: obj({ data: { type: 'array', items: group }, error: { type: 'null' }, next_cursor: { type: 'null' } }),
    errors: admin,
  },
  'PATCH /api/v1/admin/groups/:id': { id: 'updateGroup', request: { commission_rate: 25 }, body: data(group), errors: adminBody },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/bonuses': {
    id: 'createBonus',
    request: { amount_cents: 5000, currency: 'USD', description: 'Launch week top referrer' },
    status: 201,
    body: data(ref('LedgerEntry')),
    errors: adminBody,
  },
  'DELETE /api/v1/admin/groups/:id': {
    id: 'deleteGroup',
    body: data(obj({ group_id: int, deleted: bool })),
    errors: { ...admin, 409: 'The group has partners: move them first' },
  },
}
