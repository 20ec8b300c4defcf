/**
 * Reading Stripe events (docs/api.md, Processor webhooks): which payment an event reports and which referral
 * keys its metadata carries. Pure: the payload is already parsed JSON; no clock, no database.
 * Only the fields used here are read, through zod schemas that read them loosely (a field of
 * another type reads as absent), so that older and newer API versions both work.
 */
import { z } from 'zod'

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
  /** The promotion codes (promo_…) among the payment's discounts, in order: a partner's coupon may carry one. */
  promotionCodes: string[]
  /** The Stripe customer (cus_…) who paid, or null: keys a customer a promotion code attributes. */
  stripeCustomer: string | null
  /** The payer's email as the payment names it (a fact for the fraud rules), or null. */
  customerEmail: string | null
  /** Why no sale is recorded although the customer may still settle (unpaid, zero amount). */
  noSale: string | null
  /**
   * An invoice that names no referral key: it is the payment of the program's `stripe:<cus_…>`
   * customer when there is one (imported, or from a promotion-code sale); this is the reason it
   * is ignored when there is none.
   */
  unknownCustomer: string | null
}

export type EventReading = { kind: 'payment'; payment: StripePayment } | { kind: 'ignored'; detail: string }

export const HANDLED_TYPES = ['checkout.session.completed', 'invoice.payment_succeeded'] as const

/** A JSON object (not an array). */
const object = z.record(z.string(), z.unknown())
/** A non-blank string, trimmed; anything else reads as null. */
const text = z.string().trim().min(1).nullable().catch(null)
/** An id field that Stripe may send as a string or, when expanded, as an object with an id. */
const id = z
  .union([z.string().trim().min(1), z.object({ id: z.string().trim().min(1) }).transform((o) => o.id)])
  .nullable()
  .catch(null)
/** Unix seconds as epoch ms; null when absent or not a number. */
const seconds = z
  .number()
  .transform((value) => value * 1000)
  .nullable()
  .catch(null)
/** An amount in the smallest unit; 0 when absent. */
const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).catch(0)

const Envelope = z.object({
  id: text,
  type: text,
  livemode: z.boolean().nullable().catch(null),
  account: text,
  created: seconds,
  data: z.object({ object }),
})

/** The three metadata keys of docs/api.md, Processor webhooks; each null when absent or blank, all null when metadata is not an object. */
const Keys = z
  .object({ svc_click_id: text, svc_customer_key: text, program_id: text })
  .transform((m): ReferralKeys => ({ clickId: m.svc_click_id, customerKey: m.svc_customer_key, programId: m.program_id }))
  .catch({ clickId: null, customerKey: null, programId: null })

const Checkout = z.object({
  id,
  mode: text,
  metadata: z.unknown().optional(),
  amount_total: amount,
  currency: text,
  created: seconds,
  payment_intent: id,
  // Absent (or null) reads as paid, as every Checkout session that is not a delayed method is.
  payment_status: z.unknown().optional(),
})

/**
 * The promotion code of a discount in the shapes Stripe sends it: an object with
 * `promotion_code` (an id, or the expanded promotion code), or `{ discount: {...} }` in a
 * session's `total_details.breakdown.discounts`; a bare discount id (di_…) names none.
 */
const Discount = z
  .union([
    // The wrapped form first: `id` reads a missing promotion_code as null, so the plain form matches anything.
    z.object({ discount: z.object({ promotion_code: id }) }).transform((d) => d.discount.promotion_code),
    z.object({ promotion_code: id }).transform((d) => d.promotion_code),
  ])
  .catch(null)
const discountList = z.array(z.unknown()).max(100).catch([])

/** A checkout session's `total_details.breakdown.discounts` (built once: zod compiles each schema it is given). */
const TotalDiscounts = z.object({ total_details: z.object({ breakdown: z.object({ discounts: discountList }) }) })

/** The promotion codes among the discounts of a checkout session or an invoice, in order, each once. */
export function promotionCodesOf(object: Json): string[] {
  const total = TotalDiscounts.safeParse(object)
  const candidates = [
    ...discountList.parse(object.discounts),
    ...(total.success ? total.data.total_details.breakdown.discounts : []),
    object.discount, // invoices of older API versions: one `discount` object
  ]
  const codes = new Set<string>()
  for (const candidate of candidates) {
    const code = Discount.parse(candidate)
    if (code?.startsWith('promo_')) codes.add(code)
  }
  return [...codes]
}

const WithSubscriptionMetadata = z.object({ subscription_details: z.object({ metadata: object }) })

const Invoice = z.object({
  id,
  billing_reason: text,
  amount_paid: amount,
  currency: text,
  status_transitions: z.object({ paid_at: seconds }).catch({ paid_at: null }),
})

/** The envelope of a parsed event body, or null when it is not a Stripe event (no id, type or data.object). */
export function readEnvelope(body: unknown): StripeEnvelope | null {
  const parsed = Envelope.safeParse(body)
  if (!parsed.success) return null
  const { id, type, livemode, account, created, data } = parsed.data
  if (!id || !type) return null
  return { id, type, object: data.object, livemode, account, createdAt: created }
}

/** The referral keys of a metadata object; missing keys are null. */
export function readKeys(metadata: unknown): ReferralKeys {
  return Keys.parse(metadata)
}

const hasCustomer = (keys: ReferralKeys) => keys.clickId !== null || keys.customerKey !== null

/**
 * The subscription metadata of an invoice: the current `parent.subscription_details.metadata`,
 * else the older top-level `subscription_details.metadata`; null when the invoice has neither
 * (it was not made by a subscription).
 */
export function subscriptionMetadata(invoice: Json): Json | null {
  const current = WithSubscriptionMetadata.safeParse(invoice.parent)
  if (current.success) return current.data.subscription_details.metadata
  const older = WithSubscriptionMetadata.safeParse(invoice)
  return older.success ? older.data.subscription_details.metadata : null
}

/** `object[field]` when it is a short text, or `object[field].email` (customer_details); null otherwise. */
function emailOf(object: Json, field: string): string | null {
  const value = object[field]
  const found = typeof value === 'object' && value !== null ? (value as Json).email : value
  return typeof found === 'string' && found.length > 0 && found.length <= 254 ? found : null
}

function readCheckout(event: StripeEnvelope): EventReading {
  const session = Checkout.parse(event.object)
  const { mode } = session
  // docs/api.md, Customer states: subscription checkouts are left to the invoice event, which carries the subscription's keys.
  if (mode === 'subscription') return ignored('Subscription checkout: its invoice.payment_succeeded event attributes the payment')
  // A session without `mode` is read as a payment (every Checkout session that takes money once is).
  if (mode !== null && mode !== 'payment') return ignored(`Checkout mode ${mode}: no one-off payment to attribute`)
  const keys = readKeys(session.metadata)
  const promotionCodes = promotionCodesOf(event.object)
  if (!hasCustomer(keys) && promotionCodes.length === 0)
    return ignored('No svc_click_id or svc_customer_key in the checkout session metadata: not attributed')
  const sessionId = session.id ?? event.id
  // Delayed methods (bank debits) complete the session unpaid; the money is not in yet.
  const paid = (session.payment_status ?? 'paid') === 'paid'
  return payment({
    transactionId: session.payment_intent ?? sessionId,
    providerPaymentId: sessionId,
    amountCents: session.amount_total,
    currency: session.currency?.toUpperCase() ?? 'USD', // absent: USD, as on POST /track/sale (docs/decisions.md)
    occurredAt: event.createdAt ?? session.created,
    billingReason: null,
    keys,
    promotionCodes,
    stripeCustomer: id.parse(event.object.customer),
    customerEmail: emailOf(event.object, 'customer_details') ?? emailOf(event.object, 'customer_email'),
    noSale: !paid
      ? `Checkout payment_status ${text.parse(session.payment_status) ?? '(none)'}: no sale recorded`
      : zeroAmount(session.amount_total),
    unknownCustomer: null,
  })
}

function readInvoice(event: StripeEnvelope): EventReading {
  const invoice = Invoice.parse(event.object)
  const reason = invoice.billing_reason
  const metadata = subscriptionMetadata(event.object)
  const promotionCodes = promotionCodesOf(event.object)
  const stripeCustomer = id.parse(event.object.customer)
  let unknownCustomer: string | null = null
  if (metadata === null && promotionCodes.length === 0)
    unknownCustomer = 'Invoice without a subscription: no subscription metadata to read svc_click_id or svc_customer_key from'
  const keys = readKeys(metadata)
  if (unknownCustomer === null && !hasCustomer(keys) && promotionCodes.length === 0) {
    const what = reason === 'subscription_create' ? 'First subscription payment' : 'Renewal'
    unknownCustomer = `${what} without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed`
  }
  // docs/decisions.md (turn 4, settled): without keys, a known stripe:<cus_…> customer of the program still pays.
  if (unknownCustomer !== null && stripeCustomer === null) return ignored(unknownCustomer)
  const invoiceId = invoice.id ?? event.id
  return payment({
    transactionId: invoiceId,
    providerPaymentId: invoiceId,
    amountCents: invoice.amount_paid,
    currency: invoice.currency?.toUpperCase() ?? 'USD',
    occurredAt: invoice.status_transitions.paid_at ?? event.createdAt,
    billingReason: reason,
    keys,
    promotionCodes,
    stripeCustomer,
    customerEmail: emailOf(event.object, 'customer_email'),
    // A trial's first invoice pays nothing; the lead still settles and the first paid renewal converts.
    noSale: zeroAmount(invoice.amount_paid),
    unknownCustomer,
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
/** Why a payment of `amount` (minor units) records no sale, or null: the words of every processor's reader. */
export const zeroAmount = (amount: number) => (amount > 0 ? null : 'Amount paid is zero: no sale recorded')
