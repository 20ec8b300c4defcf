import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { click, lead, refund, sale, shared } from '../../domain/messages.ts'

// Request bodies of the tracking routes. Each property carries docs/errors.md's 400 message as `error`;
// bodyChecker reports the first failing one in declaration order, which follows docs/errors.md's tables.
// Integers use TypeBox's Type.Integer: Elysia's t.Integer also accepts numeric strings ("4900").

/** Allowed values of a sale's `provider` (docs/api.md and docs/tracking.md). */
export const PROVIDERS = ['stripe', 'paddle', 'lemonsqueezy', 'paypal', 'braintree', 'chargebee', 'manual'] as const

const AdditionalData = t.Object(
  {
    test_mode: t.Optional(t.Boolean({ description: 'Marks the records as test data, excluded from live counts' })),
    program_id: t.Optional(
      t.Union([Type.Integer({ minimum: 1 }), t.String({ pattern: '^[0-9]{1,15}$' })], {
        description: 'Test events: the program meant; with a Bearer key of another program the answer is 403',
      }),
    ),
  },
  { error: shared.additionalData },
)

const customerKey = (error: string) =>
  t.Union([t.String({ maxLength: 255 }), Type.Integer()], {
    error,
    description: "The advertiser's stable customer id (svc_customer_key in processor metadata)",
  })
const clickId = (error: string) => t.String({ maxLength: 255, error, description: 'From the svc_click_id cookie' })

export const ClickBody = t.Object({
  affiliate_url: t.String({ minLength: 1, error: click.urlRequired, description: 'Fully qualified URL carrying the aff query parameter' }),
  additional_data: t.Optional(AdditionalData),
  click_id: t.Optional(clickId(click.clickIdType)),
})

export const LeadBody = t.Object({
  click_id: t.Optional(clickId(lead.clickIdType)),
  customer_key: t.Optional(customerKey(lead.customerKeyType)),
  email: t.Optional(t.String({ maxLength: 254, error: lead.emailType })),
  additional_data: t.Optional(AdditionalData),
})

export const SaleBody = t.Object({
  // No length limit in docs/api.md; the 64 KiB body limit bounds it.
  transaction_id: t.Optional(
    t.String({
      minLength: 1,
      error: sale.transactionId,
      description: 'Idempotency key, unique across programs; test mode may omit it (test_txn_<timestamp>)',
    }),
  ),
  amount_cents: Type.Integer({ exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER, error: sale.amount }),
  occurred_at: t.Optional(
    t.String({ maxLength: 64, error: sale.occurredAt, description: 'ISO 8601 with offset; at most 30 days old, 5 minutes ahead' }),
  ),
  provider: t.Optional(
    t.Union(
      PROVIDERS.map((v) => t.Literal(v)),
      { error: sale.provider(PROVIDERS) },
    ),
  ),
  // 255 characters (checked in track-sale.ts); 510 UTF-16 units is their most.
  provider_payment_id: t.Optional(t.String({ minLength: 1, maxLength: 510, error: sale.providerPaymentId })),
  livemode: t.Optional(t.Boolean({ error: sale.livemode })),
  customer_key: t.Optional(customerKey(sale.customerKeyType)),
  click_id: t.Optional(clickId(sale.clickIdType)),
  coupon_code: t.Optional(
    t.String({
      maxLength: 64,
      error: sale.couponCode,
      description: "A partner's coupon code the customer used (any case); unknown codes are ignored",
    }),
  ),
  additional_data: t.Optional(AdditionalData),
  // Checked after the 400s, answering 422 unsupported_currency (docs/errors.md), so any JSON value passes here.
  currency: t.Optional(t.Any({ description: 'USD (default), EUR or VND, in capitals; others (usd too) answer 422', examples: ['USD'] })),
})

export const RefundBody = t.Object({
  transaction_id: t.String({ minLength: 1, error: refund.transactionId, description: 'The transaction_id of the sale' }),
  reason: t.Optional(t.Union([t.Literal('refund'), t.Literal('chargeback')], { error: refund.reason, description: 'Default refund' })),
  refund_reason: t.Optional(t.String({ maxLength: 1000, error: refund.refundReasonType })),
})
