/**
 * Lemon Squeezy (docs/processors/lemonsqueezy.md). Signature: `X-Signature` = hex
 * HMAC-SHA256(signing secret, raw body) (docs.lemonsqueezy.com/help/webhooks/signing-requests);
 * it signs no time, so an old event cannot be told by its age. Events: `{ meta: { event_name,
 * test_mode, custom_data }, data: { type, id, attributes } }` (JSON:API). Orders and subscription
 * invoices are sales (`ls_order_<id>`, `ls_invoice_<id>`), their refunded events refunds. A
 * subscription's first payment comes twice (order_created and an `initial` invoice): the order counts.
 */
import { HEX_SHA256 } from '../domain/stripe-signature.ts'
import {
  amountOf,
  hmacHex,
  ignored,
  otherMode,
  keysOf,
  objectOf,
  otherProgram,
  anySame,
  textOf,
  timeOf,
  zeroAmount,
  type Processor,
  type ProcessorEvent,
  type ProgramFacts,
  type Reading,
  type SignatureCheck,
} from './processor.ts'

function verify(raw: Uint8Array, headers: Headers, secrets: readonly string[]): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' }
  const header = headers.get('x-signature')?.trim().toLowerCase()
  if (!header) return { ok: false, reason: 'missing_header' }
  if (!HEX_SHA256.test(header)) return { ok: false, reason: 'malformed_header' }
  const expected = secrets.map((secret) => hmacHex(secret, raw))
  return anySame(expected, [header]) ? { ok: true } : { ok: false, reason: 'mismatch' }
}

/** The event of a body; its id is the event name and the object's id (Lemon Squeezy sends none of its own). */
function parse(body: unknown): ProcessorEvent | null {
  const meta = objectOf(objectOf(body)?.meta)
  const data = objectOf(objectOf(body)?.data)
  const name = textOf(meta?.event_name)
  const id = textOf(data?.id)
  if (!meta || !data || !name || !id || !objectOf(data.attributes)) return null
  const testMode = meta.test_mode === true || objectOf(data.attributes)?.test_mode === true
  return {
    id: `lemonsqueezy:${name}:${id}`,
    type: name,
    livemode: !testMode,
    account: null,
    createdAt: timeOf(objectOf(data.attributes)?.created_at),
    data: { ...data, custom_data: meta.custom_data ?? null },
  }
}

const SALES = { order_created: 'order', subscription_payment_success: 'invoice' } as const
const REFUNDS = { order_refunded: 'order', subscription_payment_refunded: 'invoice' } as const
const TYPES = [...Object.keys(SALES), ...Object.keys(REFUNDS)]

function readSale(event: ProcessorEvent, program: ProgramFacts, kind: 'order' | 'invoice'): Reading {
  const attributes = objectOf(event.data.attributes)!
  const id = textOf(event.data.id)!
  const reason = kind === 'invoice' ? textOf(attributes.billing_reason) : null
  if (reason === 'initial')
    return ignored(`Subscription invoice ${id} is the first payment (billing_reason initial): its order_created event counts`)
  const keys = keysOf(event.data.custom_data)
  const other = otherProgram(keys, program)
  if (other) return other
  const total = amountOf(attributes.total)
  if (total === null) return ignored(`${event.type} ${id} has no total: not read`)
  const amount = Math.max(total - (amountOf(attributes.tax) ?? 0), 0)
  const status = textOf(attributes.status)
  const customer = textOf(attributes.customer_id)
  const transactionId = `ls_${kind}_${id}`
  return {
    kind: 'sale',
    sale: {
      transactionId,
      providerPaymentId: id,
      amountCents: amount,
      currency: textOf(attributes.currency)?.toUpperCase() ?? null,
      occurredAt: event.createdAt,
      billingReason: reason,
      keys,
      promotionCodes: [],
      stripeCustomer: null,
      processorCustomer: customer ? `lemonsqueezy:${customer}` : null,
      customerEmail: textOf(attributes.user_email),
      noSale: status !== null && status !== 'paid' ? `${event.type} status ${status}: no sale recorded` : zeroAmount(amount),
      testMode: event.livemode === false,
    },
  }
}

function read(event: ProcessorEvent, program: ProgramFacts): Reading {
  if (!TYPES.includes(event.type)) return ignored(`Event type ${event.type} is not used: only ${TYPES.join(', ')} are read`)
  const other = otherMode(event, program)
  if (other) return other
  const sale = SALES[event.type as keyof typeof SALES]
  if (sale) return readSale(event, program, sale)
  const kind = REFUNDS[event.type as keyof typeof REFUNDS]!
  const id = textOf(event.data.id)!
  return { kind: 'refund', transactionIds: [`ls_${kind}_${id}`], reason: 'refund', what: `${event.type} ${id}` }
}

export const lemonsqueezy: Processor = {
  name: 'lemonsqueezy',
  label: 'Lemon Squeezy',
  header: 'X-Signature',
  toleranceSeconds: null,
  shape: 'JSON with meta.event_name and data with id and attributes',
  handledTypes: TYPES,
  secretsOf: (program) => (program.lemonsqueezyWebhookSecret ? [program.lemonsqueezyWebhookSecret] : []),
  verify,
  parse,
  read,
  sign: (payload, secret) => ({ 'x-signature': hmacHex(secret, payload) }),
}
