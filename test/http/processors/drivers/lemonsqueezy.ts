// Lemon Squeezy: docs.lemonsqueezy.com/help/webhooks/example-payloads (orders, subscription
// invoices), signed as docs.lemonsqueezy.com/help/webhooks/signing-requests says: X-Signature =
// hex HMAC-SHA256 of the body. No official SDK verifies webhooks.
import { counter, custom, type Driver, hex, iso, next, now, type Payment } from './driver.ts'

const lsAttributes = (p: Payment, extra: Record<string, unknown>) => ({
  store_id: 1,
  customer_id: Number(p.customer),
  user_name: 'Buyer',
  user_email: 'buyer@shop.test',
  currency: p.currency,
  currency_rate: '1.00000000',
  status: 'paid',
  status_formatted: 'Paid',
  refunded: false,
  refunded_at: null,
  subtotal: p.net,
  discount_total: 0,
  tax: p.tax,
  tax_inclusive: false,
  total: p.net + p.tax,
  subtotal_usd: p.net,
  discount_total_usd: 0,
  tax_usd: p.tax,
  total_usd: p.net + p.tax,
  created_at: iso(now()),
  updated_at: iso(now()),
  test_mode: p.testMode === true,
  ...extra,
})

const lsEvent = (name: string, p: Payment, data: Record<string, unknown>, customData: Record<string, string> | null) => ({
  meta: { test_mode: p.testMode === true, event_name: name, ...(customData ? { custom_data: customData } : {}) },
  data,
})

export const lemonsqueezy: Driver = {
  name: 'lemonsqueezy',
  label: 'Lemon Squeezy',
  secretField: 'lemonsqueezy_webhook_secret',
  secret: () => next('ls_secret'),
  payment(p) {
    const id = String(100_000 + counter())
    if (p.renewal) {
      const attributes = lsAttributes(p, { subscription_id: 7, billing_reason: 'renewal', card_brand: 'visa', card_last_four: '4242' })
      const data = {
        type: 'subscription-invoices',
        id,
        attributes,
        links: { self: `https://api.lemonsqueezy.com/v1/subscription-invoices/${id}` },
      }
      return { body: JSON.stringify(lsEvent('subscription_payment_success', p, data, null)), transactionId: `ls_invoice_${id}`, ref: id }
    }
    const attributes = lsAttributes(p, {
      identifier: crypto.randomUUID(),
      order_number: Number(id),
      first_order_item: { product_name: 'Plan' },
    })
    const data = { type: 'orders', id, attributes, links: { self: `https://api.lemonsqueezy.com/v1/orders/${id}` } }
    return { body: JSON.stringify(lsEvent('order_created', p, data, custom(p))), transactionId: `ls_order_${id}`, ref: id }
  },
  refund(sale, p) {
    const attributes = lsAttributes(p, {
      status: 'refunded',
      status_formatted: 'Refunded',
      refunded: true,
      refunded_at: iso(now()),
      refunded_amount: p.net + p.tax,
    })
    return { body: JSON.stringify(lsEvent('order_refunded', p, { type: 'orders', id: sale.ref, attributes }, null)) }
  },
  chargeback: null,
  unknown: () => ({
    body: JSON.stringify(
      lsEvent(
        'subscription_created',
        { customer: '1', net: 0, tax: 0, currency: 'USD' },
        { type: 'subscriptions', id: '1', attributes: { status: 'active' } },
        null,
      ),
    ),
  }),
  sign: async (body, secret) => ({ 'x-signature': hex(secret, body) }),
  staleAfterSeconds: null,
  testMode: true,
  sdkAccepts: null,
}
