import Stripe from 'stripe'
import type { Api, Fixture } from '../../helpers.ts'
import { unique } from '../track/kit.ts'

/**
 * Stripe event payloads shaped like the current API (the stripe package's types, API version
 * Stripe.API_VERSION), signed with the package's own test header helper. Every required field of
 * Checkout.Session, Invoice and Event is present, so a type check fails when Stripe's shape moves.
 */

const stripe = new Stripe('sk_test_fixtures')
let sequence = 0
const next = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36).padStart(4, '0')}`

export type Metadata = Record<string, string>

/** `t=…,v1=…` for `payload` at `nowMs` (async: under Bun the package's HMAC is Web Crypto). */
export function signatureHeader(payload: string, secret: string, nowMs: number): Promise<string> {
  return stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp: Math.floor(nowMs / 1000) })
}

/** The metadata of docs/api.md, Processor webhooks; pass null to leave a key out. */
export function referralMetadata(programId: number, keys: { clickId?: string | null; customerKey?: string | null }): Metadata {
  const metadata: Metadata = { program_id: String(programId) }
  if (keys.clickId) metadata.svc_click_id = keys.clickId
  if (keys.customerKey) metadata.svc_customer_key = keys.customerKey
  return metadata
}

export function checkoutSession(fields: Partial<Stripe.Checkout.Session> & { created: number }): Stripe.Checkout.Session {
  return {
    id: next('cs_test'),
    object: 'checkout.session',
    adaptive_pricing: { enabled: true },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: 4900,
    amount_total: 4900,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: 'https://shop.test/cancel',
    client_reference_id: null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    currency: 'usd',
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: next('cus'),
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: 'buyer@shop.test',
    discounts: [],
    expires_at: fields.created + 86_400,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: {},
    mode: 'payment',
    origin_context: null,
    payment_intent: next('pi'),
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: 'paid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'complete',
    submit_type: null,
    subscription: null,
    success_url: 'https://shop.test/thanks',
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: null,
    wallet_options: null,
    ...fields,
  }
}

/**
 * A paid subscription invoice. `metadata` is the subscription's (subscription_data.metadata),
 * carried where the current API puts it (`parent.subscription_details`) unless `older` asks for
 * the top-level `subscription_details` of API versions before 2025-03-31.
 */
export function subscriptionInvoice(options: {
  created: number
  subscription: string
  metadata: Metadata | null
  amountPaid?: number
  currency?: string
  billingReason?: Stripe.Invoice.BillingReason
  older?: boolean
}): Stripe.Invoice {
  const { created, subscription, metadata, amountPaid = 2900, currency = 'eur', billingReason = 'subscription_create' } = options
  const details = { metadata, subscription }
  const invoice: Stripe.Invoice = {
    id: next('in'),
    object: 'invoice',
    account_country: 'US',
    account_name: 'Shop',
    account_tax_ids: null,
    amount_due: amountPaid,
    amount_overpaid: 0,
    amount_paid: amountPaid,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: billingReason,
    collection_method: 'charge_automatically',
    created,
    currency,
    custom_fields: null,
    customer: 'cus_subscriber',
    customer_account: null,
    customer_address: null,
    customer_email: 'subscriber@shop.test',
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [], has_more: false, url: '/v1/invoices/lines' },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: next('SHOP').toUpperCase(),
    on_behalf_of: null,
    parent: options.older ? null : { quote_details: null, subscription_details: details, type: 'subscription_details' },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: created,
    period_start: created - 30 * 86_400,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'paid',
    status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: created, voided_at: null },
    subtotal: amountPaid,
    subtotal_excluding_tax: amountPaid,
    test_clock: null,
    total: amountPaid,
    total_discount_amounts: [],
    total_excluding_tax: amountPaid,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  }
  // Older API versions sent the subscription's metadata here; the field left the type in 2025.
  return options.older ? ({ ...invoice, subscription, subscription_details: { metadata } } as Stripe.Invoice) : invoice
}

/** An event wrapping `object`; `account` makes it a Connect event. */
export function event<T extends Stripe.Event['type']>(
  type: T,
  object: Stripe.Checkout.Session | Stripe.Invoice,
  options: {
    created: number
    livemode?: boolean
    account?: string
    id?: string
  },
): Stripe.Event {
  return {
    id: options.id ?? next('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created,
    data: { object: object as unknown as Stripe.Event.Data.Object },
    livemode: options.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(options.account ? { account: options.account } : {}),
  } as Stripe.Event
}

/** POSTs `body` (an event, sent as its exact JSON text) signed with `secret` at the server clock (shifted by `skewMs`). */
export async function deliver(
  api: Pick<Api, 'call' | 'clock'>,
  path: string,
  body: Stripe.Event | string,
  secret: string,
  options: { skewMs?: number; header?: string } = {},
) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body)
  const header = options.header ?? (await signatureHeader(payload, secret, api.clock.now() + (options.skewMs ?? 0)))
  return api.call('POST', path, {
    body: payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
  })
}

/**
 * A live-mode program with a signing secret, and live-mode events made at the server clock, for
 * `api()` (test-mode events are test data: docs/decisions.md, Test data).
 */
export function scenario(api: () => Api) {
  const seconds = () => Math.floor(api().clock.now() / 1000)
  async function stripeProgram({ livemode = true, ...fields }: Record<string, unknown> = {}) {
    const f = await api().setupProgram(fields)
    const secret = unique('whsec')
    await api().admin('PATCH', `/programs/${f.programId}`, { livemode, stripe_webhook_secret: secret })
    const send = async (e: Stripe.Event) => {
      const reply = await deliver(api(), `/api/v1/webhooks/stripe/${f.programId}`, e, secret)
      if (reply.status !== 200 || reply.body?.received !== true) throw new Error(`webhook: ${reply.status} ${JSON.stringify(reply.body)}`)
    }
    const list = async (what: string) => (await api().admin('GET', `/programs/${f.programId}/${what}`)).body.data as Record<string, any>[]
    const outcomeOf = async (e: Stripe.Event) => (await list('events')).find((row) => row.event_id === e.id)!
    return { f, send, list, outcomeOf }
  }
  function checkout(f: Fixture, keys: { clickId?: string; customerKey?: string }, fields: Partial<Stripe.Checkout.Session> = {}) {
    const session = checkoutSession({ created: seconds(), metadata: referralMetadata(f.programId, keys), livemode: true, ...fields })
    return { session, event: event('checkout.session.completed', session, { created: seconds(), livemode: session.livemode }) }
  }
  function paidInvoice(
    metadata: Metadata | null,
    billingReason: Stripe.Invoice.BillingReason,
    extra: { amountPaid?: number; older?: boolean; subscription?: string } = {},
  ) {
    const invoice = {
      ...subscriptionInvoice({ created: seconds(), subscription: extra.subscription ?? 'sub_1', metadata, billingReason, ...extra }),
      livemode: true,
    }
    return { invoice, event: event('invoice.payment_succeeded', invoice, { created: seconds(), livemode: true }) }
  }
  return { seconds, stripeProgram, checkout, paidInvoice }
}
