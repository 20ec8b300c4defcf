/**
 * Reading Stripe events (docs/api.md, Processor webhooks): which payment an event reports and which referral
 * keys its metadata carries. Pure: the payload is already parsed JSON; no clock, no database.
 * Only the fields used here are read, loosely, so that older and newer API versions both work.
 */

type Json = Record<string, unknown>

/** What every Stripe event carries; `object` is `data.object`. */
export interface StripeEnvelope {
  id: string
  type: string
  /** null when absent (a hand-written event replayed for debugging). */
  livemode: boolean | null
  /** The connected account (Connect events only). */
  account: string | null
  /** Event creation, epoch ms; null when absent. */
  createdAt: number | null
  object: Json
}

/** The three metadata keys of docs/api.md, Processor webhooks; null when absent or blank. */
export interface ReferralKeys {
  clickId: string | null
  customerKey: string | null
  programId: string | null
}

/** A payment an event reports, shaped for the sale path. */
export interface StripePayment {
  /** Derived from the payment, so that a later manual /track/sale for it answers 409. */
  transactionId: string
  /** The Stripe object the payment was read from (cs_…, in_…). */
  providerPaymentId: string
  amountCents: number
  currency: string | null
  occurredAt: number | null
  /** Invoices only: subscription_create, subscription_cycle, …; null for checkout. */
  billingReason: string | null
  keys: ReferralKeys
  /** Why no sale is recorded although the customer may still settle (unpaid, zero amount). */
  noSale: string | null
}

export type EventReading =
  | { kind: 'payment'; payment: StripePayment }
  | { kind: 'ignored'; detail: string }

export const HANDLED_TYPES = ['checkout.session.completed', 'invoice.payment_succeeded'] as const

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)
/** An id field that Stripe may send as a string or, when expanded, as an object with an id. */
const idOf = (value: unknown): string | null => text(value) ?? (isObject(value) ? text(value.id) : null)
const seconds = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value * 1000 : null)

/** The envelope of a parsed event body, or null when it is not a Stripe event (no id, type or data.object). */
export function readEnvelope(body: unknown): StripeEnvelope | null {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data.object)) return null
  const id = text(body.id)
  const type = text(body.type)
  if (!id || !type) return null
  return {
    id, type, object: body.data.object,
    livemode: typeof body.livemode === 'boolean' ? body.livemode : null,
    account: text(body.account),
    createdAt: seconds(body.created),
  }
}

/** The referral keys of a metadata object; missing keys are null. */
export function readKeys(metadata: unknown): ReferralKeys {
  const m = isObject(metadata) ? metadata : {}
  return { clickId: text(m.svc_click_id), customerKey: text(m.svc_customer_key), programId: text(m.program_id) }
}

const hasCustomer = (keys: ReferralKeys) => keys.clickId !== null || keys.customerKey !== null

/**
 * The subscription metadata of an invoice: the current `parent.subscription_details.metadata`,
 * else the older top-level `subscription_details.metadata`; null when the invoice has neither
 * (it was not made by a subscription).
 */
export function subscriptionMetadata(invoice: Json): Json | null {
  const parent = isObject(invoice.parent) ? invoice.parent : null
  const current = parent && isObject(parent.subscription_details) ? parent.subscription_details : null
  if (current && isObject(current.metadata)) return current.metadata
  const older = isObject(invoice.subscription_details) ? invoice.subscription_details : null
  return older && isObject(older.metadata) ? older.metadata : null
}

function readCheckout(event: StripeEnvelope): EventReading {
  const session = event.object
  const mode = text(session.mode)
  // docs/api.md, Customer states: subscription checkouts are left to the invoice event, which carries the subscription's keys.
  if (mode === 'subscription') return ignored('Subscription checkout: its invoice.payment_succeeded event attributes the payment')
  // A session without `mode` is read as a payment (every Checkout session that takes money once is).
  if (mode !== null && mode !== 'payment') return ignored(`Checkout mode ${mode}: no one-off payment to attribute`)
  const keys = readKeys(session.metadata)
  if (!hasCustomer(keys)) return ignored('No svc_click_id or svc_customer_key in the checkout session metadata: not attributed')
  const sessionId = idOf(session.id) ?? event.id
  const amount = typeof session.amount_total === 'number' ? session.amount_total : 0
  // Delayed methods (bank debits) complete the session unpaid; the money is not in yet.
  const paid = (session.payment_status ?? 'paid') === 'paid'
  return payment({
    transactionId: idOf(session.payment_intent) ?? sessionId,
    providerPaymentId: sessionId,
    amountCents: amount,
    currency: text(session.currency)?.toUpperCase() ?? 'USD', // absent: USD, as on POST /track/sale (docs/decisions.md)
    occurredAt: event.createdAt ?? seconds(session.created),
    billingReason: null,
    keys,
    noSale: !paid ? `Checkout payment_status ${text(session.payment_status) ?? '(none)'}: no sale recorded` : zeroAmount(amount),
  })
}

function readInvoice(event: StripeEnvelope): EventReading {
  const invoice = event.object
  const reason = text(invoice.billing_reason)
  const metadata = subscriptionMetadata(invoice)
  if (metadata === null) return ignored('Invoice without a subscription: no subscription metadata to read svc_click_id or svc_customer_key from')
  const keys = readKeys(metadata)
  if (!hasCustomer(keys)) {
    const what = reason === 'subscription_create' ? 'First subscription payment' : 'Renewal'
    return ignored(`${what} without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed`)
  }
  const invoiceId = idOf(invoice.id) ?? event.id
  const amount = typeof invoice.amount_paid === 'number' ? invoice.amount_paid : 0
  const transitions = isObject(invoice.status_transitions) ? invoice.status_transitions : {}
  return payment({
    transactionId: invoiceId,
    providerPaymentId: invoiceId,
    amountCents: amount,
    currency: text(invoice.currency)?.toUpperCase() ?? 'USD',
    occurredAt: seconds(transitions.paid_at) ?? event.createdAt,
    billingReason: reason,
    keys,
    // A trial's first invoice pays nothing; the lead still settles and the first paid renewal converts.
    noSale: zeroAmount(amount),
  })
}

/**
 * What an event means for `program`: a payment to record (and a lead to settle), or an ignored
 * event with the reason an owner reads in the events list.
 */
export function readEvent(event: StripeEnvelope, program: { id: number; livemode: boolean | null }): EventReading {
  if (!(HANDLED_TYPES as readonly string[]).includes(event.type)) {
    return ignored(`Event type ${event.type} is not used: only ${HANDLED_TYPES.join(' and ')} attribute`)
  }
  // A program accepts both modes unless its livemode is set (operator API).
  if (event.livemode !== null && program.livemode !== null && event.livemode !== program.livemode) {
    return ignored(`Livemode mismatch: a ${mode(event.livemode)} event for a ${mode(program.livemode)} program`)
  }
  const reading = event.type === 'checkout.session.completed' ? readCheckout(event) : readInvoice(event)
  if (reading.kind === 'payment') {
    const named = reading.payment.keys.programId
    if (named !== null && named !== String(program.id)) {
      return ignored(`Metadata program_id ${named} names another program than this one (${program.id})`)
    }
  }
  return reading
}

const mode = (live: boolean) => (live ? 'live-mode' : 'test-mode')
const ignored = (detail: string): EventReading => ({ kind: 'ignored', detail })
const payment = (p: StripePayment): EventReading => ({ kind: 'payment', payment: p })
const zeroAmount = (amount: number) => (amount > 0 ? null : 'Amount paid is zero: no sale recorded')
