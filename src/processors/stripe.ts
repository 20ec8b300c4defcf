/**
 * Stripe on the processors' shape (docs/processors/stripe.md): the Stripe-Signature check, the
 * event envelope, and what each event means. Payments are read by domain/stripe-event.ts (checkout
 * sessions and invoices); refunds and disputes here. Stripe counts a few currencies with other
 * minor units than ISO 4217 (its zero-decimal list, ISK): amounts are converted here, at its edge.
 */
import { toIsoMinor } from '../domain/currency.ts'
import { HANDLED_TYPES as PAYMENT_TYPES, readEnvelope, readEvent } from '../domain/stripe-event.ts'
import { SIGNATURE_TOLERANCE_SECONDS, signPayload, verifySignature } from '../domain/stripe-signature.ts'
import { ignored, objectOf, otherMode, textOf, type Processor, type ProcessorEvent, type ProgramFacts, type Reading } from './processor.ts'

/** Currencies Stripe counts in whole units (docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
])
/** Currencies Stripe counts in thousandths (docs.stripe.com/currencies#three-decimal). */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND'])

/**
 * The digits of Stripe's minor unit for `currency`: 0 for its zero-decimal list, 3 for its
 * three-decimal list, else 2 (ISK too: Stripe keeps it as two-decimal for backwards compatibility).
 */
export function stripeDigits(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2
}

const REFUND_TYPES = ['charge.refunded', 'charge.dispute.created'] as const

/**
 * charge.refunded (a refund, of any amount: the whole commission is reversed, as /track/refund does)
 * and charge.dispute.created (a chargeback): the sale the charge's payment made, found by the
 * invoice (older API versions name it on the charge) or the payment intent a sale is recorded under.
 */
function readRefund(event: ProcessorEvent): Reading {
  const object = event.data
  const idOf = (value: unknown) => textOf(value) ?? textOf(objectOf(value)?.id)
  const dispute = event.type === 'charge.dispute.created'
  const candidates = [idOf(object.invoice), idOf(object.payment_intent), dispute ? idOf(object.charge) : idOf(object.id)]
  const transactionIds = candidates.filter((id): id is string => id !== null)
  if (transactionIds.length === 0) return ignored(`${event.type} without a payment intent or invoice: no sale to find`)
  return {
    kind: 'refund',
    transactionIds,
    reason: dispute ? 'chargeback' : 'refund',
    what: dispute ? `Dispute ${idOf(object.id) ?? ''}`.trim() : `Refund of charge ${idOf(object.id) ?? ''}`.trim(),
  }
}

function read(event: ProcessorEvent, program: ProgramFacts): Reading {
  if ((REFUND_TYPES as readonly string[]).includes(event.type)) {
    return otherMode(event, program) ?? readRefund(event)
  }
  if (!(PAYMENT_TYPES as readonly string[]).includes(event.type))
    return ignored(`Event type ${event.type} is not used: only ${[...PAYMENT_TYPES, ...REFUND_TYPES].join(', ')} are read`)
  const reading = readEvent({ ...event, object: event.data }, program)
  if (reading.kind === 'ignored') return reading
  const { payment } = reading
  const currency = payment.currency
  return {
    kind: 'sale',
    sale: {
      ...payment,
      amountCents: currency === null ? payment.amountCents : toIsoMinor(payment.amountCents, currency, stripeDigits(currency)),
      // An invoice without keys pays as the program's stripe:<cus_…> customer, when it has one.
      processorCustomer: payment.unknownCustomer !== null && payment.stripeCustomer !== null ? `stripe:${payment.stripeCustomer}` : null,
      // docs/decisions.md, Test data: a test-mode event's sale and commission are test data, never live money.
      testMode: event.livemode === false,
    },
  }
}

export const stripe: Processor = {
  name: 'stripe',
  label: 'Stripe',
  header: 'Stripe-Signature',
  toleranceSeconds: SIGNATURE_TOLERANCE_SECONDS,
  shape: 'JSON with id, type and data.object',
  handledTypes: [...PAYMENT_TYPES, ...REFUND_TYPES],
  secretsOf: (program) => program.stripeWebhookSecrets,
  verify: (raw, headers, secrets, nowMs) => verifySignature(raw, headers.get('stripe-signature'), secrets, nowMs),
  parse(body) {
    const envelope = readEnvelope(body)
    if (!envelope) return null
    const { object, ...rest } = envelope
    return { ...rest, data: object }
  },
  read,
  sign: (payload, secret, nowSeconds) => ({ 'stripe-signature': `t=${nowSeconds},v1=${signPayload(payload, secret, nowSeconds)}` }),
}
