// The shapes the tracking endpoints answer with, and the values a sale may carry. The client
// package cannot import them from the server (src/http/track-answers.ts, track-schemas.ts)
// without shipping TypeBox and Elysia, so they are written here once, as plain types, and
// test/client/answers-match.ts fails the build (`tsc`, run by test/client/package.test.ts)
// when they differ from the server's schemas by one field.

/** The currencies every program takes unless its owner lists others (lower case is accepted too). */
export type Currency = 'USD' | 'EUR' | 'VND'

/** Payment providers a sale may name. */
export type Provider = 'stripe' | 'paddle' | 'lemonsqueezy' | 'paypal' | 'braintree' | 'chargebee' | 'manual'

/** `data` of POST /api/v1/track/lead. `provisional` only in browser mode under lead_auth server_required. */
export type LeadData = {
  customer_id: number
  status: 'provisional' | 'lead' | 'converted'
  provisional?: true
}

/** `data` of POST /api/v1/track/sale; `commission` is null when nothing is owed (non-recurring types after the first sale). */
export type SaleData = {
  sale_id: number
  transaction_id: string
  amount_cents: number
  currency: string
  commission: { commission_id: number; partner_id: number; amount_cents: number } | null
}

/** `data` of POST /api/v1/track/refund. */
export type RefundData = {
  sale_id: number
  transaction_id: string
  status: 'refunded' | 'charged_back'
}

/**
 * `data` of GET /api/v1/programs/me/discount: the visitor's partner, its group, and the discount
 * the group gives (null when none). `coupon_id` is the payment processor's coupon id.
 */
export type DiscountData = {
  partner: { name: string | null } | null
  group_id: number | null
  discount: { coupon_id: string; description: string } | null
}
