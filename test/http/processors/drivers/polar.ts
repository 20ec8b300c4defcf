// Polar: docs.polar.sh/api-reference/webhooks/order.paid (the Order schema), signed with the
// standardwebhooks package keyed as Polar's SDK keys it (base64 of the secret's UTF-8 bytes).
import { webhooks as polarWebhooks } from '@polar-sh/sdk/2026-04'
import { Webhook } from 'standardwebhooks'
import { custom, type Driver, iso, next, now, type Payment } from './driver.ts'

const polarOrder = (p: Payment, id: string, extra: Record<string, unknown> = {}) => ({
  id,
  created_at: iso(now()),
  modified_at: iso(now()),
  status: 'paid',
  paid: true,
  subtotal_amount: p.net,
  discount_amount: 0,
  net_amount: p.net,
  tax_amount: p.tax,
  total_amount: p.net + p.tax,
  applied_balance_amount: 0,
  due_amount: 0,
  refunded_amount: 0,
  refunded_tax_amount: 0,
  currency: p.currency.toLowerCase(),
  billing_reason: p.renewal ? 'subscription_cycle' : 'purchase',
  billing_name: 'Buyer',
  billing_address: null,
  invoice_number: `INV-${id.slice(0, 6)}`,
  is_invoice_generated: false,
  customer_id: p.customer,
  product_id: crypto.randomUUID(),
  discount_id: null,
  subscription_id: p.renewal ? crypto.randomUUID() : null,
  checkout_id: null,
  metadata: p.renewal ? {} : custom(p),
  custom_field_data: {},
  platform_fee_amount: 0,
  customer: {
    id: p.customer,
    created_at: iso(now()),
    modified_at: null,
    metadata: {},
    external_id: null,
    email: 'buyer@shop.test',
    email_verified: true,
    name: 'Buyer',
    billing_address: null,
    tax_id: null,
    organization_id: crypto.randomUUID(),
    deleted_at: null,
    avatar_url: null,
  },
  items: [],
  description: 'Plan',
  ...extra,
})

export const polar: Driver = {
  name: 'polar',
  label: 'Polar',
  secretField: 'polar_webhook_secret',
  secret: () => next('whsec_polar'),
  payment(p) {
    const id = crypto.randomUUID()
    return {
      body: JSON.stringify({ type: 'order.paid', timestamp: iso(now()), data: polarOrder(p, id) }),
      transactionId: `polar_${id}`,
      ref: id,
    }
  },
  refund: (sale, p) => ({
    body: JSON.stringify({
      type: 'order.refunded',
      timestamp: iso(now()),
      data: polarOrder(p, sale.ref!, { status: 'refunded', refunded_amount: p.net + p.tax }),
    }),
  }),
  chargeback: null,
  unknown: () => ({
    body: JSON.stringify({ type: 'checkout.created', timestamp: iso(now()), data: { id: crypto.randomUUID(), status: 'open' } }),
  }),
  sign: async (body, secret, seconds, id) => {
    const signature = new Webhook(Buffer.from(secret, 'utf8').toString('base64')).sign(id, new Date(seconds * 1000), body)
    return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature }
  },
  staleAfterSeconds: 300,
  testMode: false,
  sdkAccepts: async (body, headers, secret) => {
    try {
      await polarWebhooks.validateEvent(body, headers, secret)
      return true
    } catch {
      return false
    }
  },
}
