// Paddle Billing: developer.paddle.com/webhooks/overview (the notification envelope),
// …/webhooks/transactions/transaction-completed, …/webhooks/adjustments/adjustment-created,
// signed as developer.paddle.com/webhooks/signature-verification says: h1 = HMAC(ts + ":" + body).
import { Environment, Paddle } from '@paddle/paddle-node-sdk'
import { custom, type Driver, hex, iso, next, now, type Payment, type Sent } from './driver.ts'

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
