import type { Static } from '@sinclair/typebox'
import { t } from 'elysia'

// Success bodies of the tracking routes (docs/decisions.md, Success bodies): the OpenAPI document
// shows them and the client library takes its types from them, so neither can drift.

export const ClickAnswer = t.Object({
  success: t.Literal(true),
  click_id: t.String({ description: 'Opaque: clk_ and 24 URL-safe characters. Store it in the svc_click_id cookie' }),
  cookie_window_days: t.Integer({ description: "The program's attribution_window_days" }),
})

export const LeadData = t.Object({
  customer_id: t.Integer(),
  status: t.Union([t.Literal('provisional'), t.Literal('lead'), t.Literal('converted')]),
  provisional: t.Optional(t.Literal(true, { description: 'Browser mode under lead_auth server_required' })),
})

export const SaleData = t.Object({
  sale_id: t.Integer(),
  transaction_id: t.String(),
  amount_cents: t.Integer(),
  currency: t.String(),
  commission: t.Union([
    t.Object({ commission_id: t.Integer(), partner_id: t.Integer(), amount_cents: t.Integer() }),
    t.Null({ description: 'Nothing to pay: a non-recurring type after the first sale' }),
  ]),
})

export const RefundData = t.Object({
  sale_id: t.Integer(),
  transaction_id: t.String(),
  status: t.Union([t.Literal('refunded'), t.Literal('charged_back')]),
})

/** `data` of GET /api/v1/programs/me/discount (docs/decisions.md, Groups: two-sided). */
export const DiscountData = t.Object({
  partner: t.Union([
    t.Object({ name: t.Union([t.String(), t.Null()]) }),
    t.Null({ description: 'The visitor came through no active partner' }),
  ]),
  group_id: t.Union([t.Integer(), t.Null()]),
  discount: t.Union([
    t.Object({
      coupon_id: t.String({ description: "The processor's coupon id: Stripe Checkout's discounts: [{ coupon }]" }),
      description: t.String(),
    }),
    t.Null({ description: "No partner, or the partner's group gives no discount" }),
  ]),
})

/** The platform success envelope of `data`. */
export const answer = <T extends Parameters<typeof t.Object>[0]>(data: ReturnType<typeof t.Object<T>>) =>
  t.Object({ data, error: t.Null() })

export type ClickAnswer = Static<typeof ClickAnswer>
export type LeadData = Static<typeof LeadData>
export type SaleData = Static<typeof SaleData>
export type RefundData = Static<typeof RefundData>
export type DiscountData = Static<typeof DiscountData>
