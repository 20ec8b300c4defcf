// One driver per payment processor for the contract test (contract.test.ts): events shaped as each
// processor's documentation shows them, signed exactly as each processor signs them, by code of
// the test's own or the processor's own package (never the service's signer).
import { createHmac } from 'node:crypto'
import { Environment, Paddle } from '@paddle/paddle-node-sdk'
import { webhooks as polarWebhooks } from '@polar-sh/sdk/2026-04'
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'
import type { ProcessorName } from '../../../src/processors/processor.ts'
import { checkoutSession, event as stripeEvent, subscriptionInvoice } from '../webhooks/fixtures.ts'

export interface Payment {
  /** The processor's customer (ctm_…, cus_…, a number, a uuid). */
  customer: string
  clickId?: string
  customerKey?: string
  /** Net of tax, minor units; `tax` on top where the processor reports it. */
  net: number
  tax: number
  currency: string
  renewal?: boolean
  testMode?: boolean
}

export interface Sent {
  /** The exact JSON text sent. */
  body: string
  /** The sale's transaction id, for a later refund of it (payments only). */
  transactionId?: string
  /** The processor's own reference of the payment (what a refund event names). */
  ref?: string
}

export interface Driver {
  name: ProcessorName
  label: string
  /** The program field its secret is PATCHed into. */
  secretField: string
  secret: () => string
  payment(p: Payment): Sent
  refund(sale: Sent, p: Payment): Sent
  /** null: the processor has no chargeback event (not applicable). */
  chargeback: ((sale: Sent, p: Payment) => Sent) | null
  unknown(): Sent
  /** The headers the processor sends with `body` at `seconds`; `id` for Standard Webhooks' webhook-id. */
  sign(body: string, secret: string, seconds: number, id: string): Promise<Record<string, string>>
  /** How far back a signature is refused; null: the processor signs no time (not applicable). */
  staleAfterSeconds: number | null
  /** Whether a test-mode event exists (Paddle and Polar keep sandboxes apart instead: not applicable). */
  testMode: boolean
  /** The processor's official SDK accepting `headers` for `body` at the real time; null when there is none. */
  sdkAccepts: ((body: string, headers: Record<string, string>, secret: string) => Promise<boolean>) | null
}

let n = 0
const next = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++n).toString(36).padStart(4, '0')}`
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
const now = () => Math.floor(Date.now() / 1000)
const hex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex')

const custom = (p: Payment) => {
  const data: Record<string, string> = {}
  if (p.clickId) data.svc_click_id = p.clickId
  if (p.customerKey) data.svc_customer_key = p.customerKey
  return data
}

// ---------------------------------------------------------------------------------------------
// Stripe: docs.stripe.com/api/events/object; signed by the stripe package's test header helper.
const stripeSdk = new Stripe('sk_test_contract')

export const stripe: Driver = {
  name: 'stripe',
  label: 'Stripe',
  secretField: 'stripe_webhook_secret',
  secret: () => next('whsec'),
  payment(p) {
    const created = now()
    const livemode = !p.testMode
    if (p.renewal) {
      // A renewal: the subscription's invoice, whose metadata is the subscription's (docs/api.md).
      const invoice = {
        ...subscriptionInvoice({
          created,
          subscription: `sub_${p.customer}`,
          metadata: custom(p),
          amountPaid: p.net,
          currency: p.currency.toLowerCase(),
          billingReason: 'subscription_cycle',
        }),
        customer: p.customer,
        livemode,
      }
      return {
        body: JSON.stringify(stripeEvent('invoice.payment_succeeded', invoice, { created, livemode })),
        transactionId: invoice.id!,
        ref: invoice.id!,
      }
    }
    const session = checkoutSession({
      created,
      metadata: custom(p),
      amount_total: p.net,
      currency: p.currency.toLowerCase(),
      customer: p.customer,
      livemode,
    })
    const e = stripeEvent('checkout.session.completed', session, { created, livemode })
    return { body: JSON.stringify(e), transactionId: session.payment_intent as string, ref: session.payment_intent as string }
  },
  refund(sale, p) {
    // docs.stripe.com/api/charges/object (the fields read, and the ones every charge has).
    const charge = {
      id: next('ch'),
      object: 'charge',
      amount: p.net,
      amount_refunded: p.net,
      currency: p.currency.toLowerCase(),
      customer: p.customer,
      livemode: !p.testMode,
      paid: true,
      payment_intent: sale.ref,
      refunded: true,
      status: 'succeeded',
      created: now(),
    }
    return { body: JSON.stringify({ ...stripeEvent('charge.refunded', charge as never, { created: now(), livemode: !p.testMode }) }) }
  },
  chargeback(sale, p) {
    // docs.stripe.com/api/disputes/object.
    const dispute = {
      id: next('dp'),
      object: 'dispute',
      amount: p.net,
      charge: next('ch'),
      currency: p.currency.toLowerCase(),
      livemode: !p.testMode,
      payment_intent: sale.ref,
      reason: 'fraudulent',
      status: 'needs_response',
      created: now(),
    }
    return { body: JSON.stringify(stripeEvent('charge.dispute.created', dispute as never, { created: now(), livemode: !p.testMode })) }
  },
  unknown: () => ({
    body: JSON.stringify(
      stripeEvent('customer.created' as never, { id: next('cus'), object: 'customer' } as never, { created: now(), livemode: true }),
    ),
  }),
  sign: async (body, secret, seconds) => ({
    'stripe-signature': await stripeSdk.webhooks.generateTestHeaderStringAsync({ payload: body, secret, timestamp: seconds }),
  }),
  staleAfterSeconds: 300,
  testMode: true,
  sdkAccepts: async (body, headers, secret) => {
    try {
      await stripeSdk.webhooks.constructEventAsync(body, headers['stripe-signature']!, secret)
      return true
    } catch {
      return false
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Paddle Billing: developer.paddle.com/webhooks/overview (the notification envelope),
// …/webhooks/transactions/transaction-completed, …/webhooks/adjustments/adjustment-created,
// signed as developer.paddle.com/webhooks/signature-verification says: h1 = HMAC(ts + ":" + body).
const paddleSdk = new Paddle('pdl_sdbx_apikey_contract', { environment: Environment.sandbox })

const paddleEnvelope = (type: string, data: Record<string, unknown>) => ({
  event_id: next('evt'),
  event_type: type,
  occurred_at: iso(now()),
  notification_id: next('ntf'),
  data,
})

const paddleTotals = (p: Payment) => ({
  subtotal: String(p.net),
  tax: String(p.tax),
  discount: '0',
  total: String(p.net + p.tax),
  grand_total: String(p.net + p.tax),
  fee: '0',
  credit: '0',
  credit_to_balance: '0',
  balance: '0',
  earnings: String(p.net),
  currency_code: p.currency,
})

export const paddle: Driver = {
  name: 'paddle',
  label: 'Paddle',
  secretField: 'paddle_webhook_secret',
  secret: () => next('pdl_ntfset'),
  payment(p) {
    const id = next('txn')
    const at = iso(now())
    const data = {
      id,
      status: 'completed',
      customer_id: p.customer,
      address_id: next('add'),
      business_id: null,
      // Paddle copies the subscription's custom data onto renewals only when it was set there: none here.
      custom_data: p.renewal ? null : custom(p),
      currency_code: p.currency,
      origin: p.renewal ? 'subscription_recurring' : 'web',
      subscription_id: next('sub'),
      invoice_id: next('inv'),
      invoice_number: '325-10566',
      collection_mode: 'automatic',
      discount_id: null,
      billing_details: null,
      billing_period: { starts_at: at, ends_at: at },
      items: [],
      details: { tax_rates_used: [], totals: paddleTotals(p), adjusted_totals: paddleTotals(p), payout_totals: null, line_items: [] },
      payments: [],
      checkout: { url: 'https://shop.test/pay?_ptxn=' + id },
      created_at: at,
      updated_at: at,
      billed_at: at,
    }
    return { body: JSON.stringify(paddleEnvelope('transaction.completed', data)), transactionId: id, ref: id }
  },
  refund: (sale, p) => ({ body: JSON.stringify(paddleEnvelope('adjustment.updated', paddleAdjustment(sale, p, 'refund'))) }),
  chargeback: (sale, p) => ({ body: JSON.stringify(paddleEnvelope('adjustment.created', paddleAdjustment(sale, p, 'chargeback'))) }),
  unknown: () => ({
    body: JSON.stringify(paddleEnvelope('customer.created', { id: next('ctm'), email: 'buyer@shop.test', status: 'active' })),
  }),
  sign: async (body, secret, seconds) => ({ 'paddle-signature': `ts=${seconds};h1=${hex(secret, `${seconds}:${body}`)}` }),
  staleAfterSeconds: 5,
  testMode: false,
  sdkAccepts: (body, headers, secret) => paddleSdk.webhooks.isSignatureValid(body, secret, headers['paddle-signature']!),
}

function paddleAdjustment(sale: Sent, p: Payment, action: 'refund' | 'chargeback') {
  const at = iso(now())
  return {
    id: next('adj'),
    action,
    type: 'full',
    transaction_id: sale.ref,
    subscription_id: null,
    customer_id: p.customer,
    reason: action === 'refund' ? 'error' : 'chargeback',
    credit_applied_to_balance: null,
    currency_code: p.currency,
    status: 'approved',
    items: [],
    totals: {
      subtotal: String(p.net),
      tax: String(p.tax),
      total: String(p.net + p.tax),
      fee: '0',
      earnings: '0',
      currency_code: p.currency,
    },
    payout_totals: null,
    created_at: at,
    updated_at: at,
  }
}

// ---------------------------------------------------------------------------------------------
// Lemon Squeezy: docs.lemonsqueezy.com/help/webhooks/example-payloads (orders, subscription
// invoices), signed as docs.lemonsqueezy.com/help/webhooks/signing-requests says: X-Signature =
// hex HMAC-SHA256 of the body. No official SDK verifies webhooks.
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
    const id = String(100_000 + ++n)
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
    const attributes = lsAttributes(p, { identifier: crypto.randomUUID(), order_number: n, first_order_item: { product_name: 'Plan' } })
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

// ---------------------------------------------------------------------------------------------
// Polar: docs.polar.sh/api-reference/webhooks/order.paid (the Order schema), signed with the
// standardwebhooks package keyed as Polar's SDK keys it (base64 of the secret's UTF-8 bytes).
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

export const drivers: Driver[] = [stripe, paddle, lemonsqueezy, polar]
