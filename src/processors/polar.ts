/**
 * Polar (docs/processors/polar.md). Signatures are Standard Webhooks' (standardwebhooks.com):
 * `webhook-id`, `webhook-timestamp` (unix seconds, 300 s tolerance both ways) and
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + raw body)>`, as
 * Polar's SDK (`validateEvent`) checks them: the key is the secret string's own UTF-8 bytes, even
 * when it starts with `whsec_` (the SDK also tries the base64-decoded rest, so both are accepted).
 * `order.paid` is a sale (`polar_<order id>`, net of tax), `order.refunded` a refund of it.
 */
import {
  amountOf,
  hmacBase64,
  ignored,
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

/** Standard Webhooks' tolerance, before and after, as Polar's SDK applies it. */
export const POLAR_TOLERANCE_SECONDS = 300

/** The HMAC keys a secret stands for: its UTF-8 bytes, and the base64-decoded rest when it decodes to other bytes. */
function keysFor(secret: string): Uint8Array[] {
  const utf8 = new TextEncoder().encode(secret)
  const rest = secret.startsWith('whsec_') ? secret.slice(6) : secret
  // As Polar's SDK decodes it (atob: padding optional); text that is not base64 stands only for its bytes.
  let binary: string
  try {
    binary = atob(rest)
  } catch {
    return [utf8]
  }
  const decoded = Uint8Array.from(binary, (c) => c.charCodeAt(0))
  return decoded.length > 0 && Buffer.compare(Buffer.from(decoded), Buffer.from(utf8)) !== 0 ? [utf8, decoded] : [utf8]
}

function verify(raw: Uint8Array, headers: Headers, secrets: readonly string[], nowMs: number): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' }
  const id = headers.get('webhook-id')
  const timestamp = headers.get('webhook-timestamp')
  const signature = headers.get('webhook-signature')
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing_header' }
  if (!/^\d{1,12}$/.test(timestamp.trim())) return { ok: false, reason: 'malformed_header' }
  const ts = Number(timestamp.trim())
  const given = signature
    .split(' ')
    .map((s) => s.split(',', 2))
    .filter(([version, value]) => version === 'v1' && value)
    .map(([, value]) => value!)
  if (given.length === 0) return { ok: false, reason: 'malformed_header' }
  const expected = secrets.flatMap((secret) => keysFor(secret).map((key) => hmacBase64(key, `${id}.${ts}.`, raw)))
  if (!anySame(expected, given)) return { ok: false, reason: 'mismatch' }
  const now = Math.floor(nowMs / 1000)
  if (now - ts > POLAR_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' }
  if (ts - now > POLAR_TOLERANCE_SECONDS) return { ok: false, reason: 'future' }
  return { ok: true }
}

/** The event of a body; its id is the delivery's `webhook-id` (the same on every retry). */
function parse(body: unknown, _raw: Uint8Array, headers: Headers): ProcessorEvent | null {
  const envelope = objectOf(body)
  const data = objectOf(envelope?.data)
  const type = textOf(envelope?.type)
  const id = textOf(headers.get('webhook-id'))
  if (!envelope || !data || !type || !id) return null
  return { id: `polar:${id}`, type, livemode: null, account: null, createdAt: timeOf(envelope.timestamp), data }
}

function readOrder(event: ProcessorEvent, program: ProgramFacts): Reading {
  const order = event.data
  const id = textOf(order.id)
  if (!id) return ignored('order.paid without an order id: not read')
  const metadata = keysOf(order.metadata)
  const customer = objectOf(order.customer)
  const keys = { ...metadata, customerKey: textOf(customer?.external_id) ?? metadata.customerKey }
  const other = otherProgram(keys, program)
  if (other) return other
  const net = amountOf(order.net_amount)
  const total = amountOf(order.total_amount)
  const amount = net ?? (total === null ? null : Math.max(total - (amountOf(order.tax_amount) ?? 0), 0))
  if (amount === null) return ignored(`Order ${id} has no net_amount: not read`)
  const customerId = textOf(order.customer_id) ?? textOf(customer?.id)
  const reason = textOf(order.billing_reason)
  return {
    kind: 'sale',
    sale: {
      transactionId: `polar_${id}`,
      providerPaymentId: id,
      amountCents: amount,
      currency: textOf(order.currency)?.toUpperCase() ?? null,
      occurredAt: timeOf(order.created_at) ?? event.createdAt,
      billingReason: reason === 'purchase' ? null : reason,
      keys,
      promotionCodes: [],
      stripeCustomer: null,
      processorCustomer: customerId ? `polar:${customerId}` : null,
      customerEmail: textOf(customer?.email),
      noSale: order.paid === false ? 'Order not paid: no sale recorded' : zeroAmount(amount),
      testMode: false,
    },
  }
}

const TYPES = ['order.paid', 'order.refunded'] as const

export const polar: Processor = {
  name: 'polar',
  label: 'Polar',
  header: 'webhook-signature',
  toleranceSeconds: POLAR_TOLERANCE_SECONDS,
  shape: 'JSON with type and data, and a webhook-id header',
  handledTypes: TYPES,
  secretsOf: (program) => (program.polarWebhookSecret ? [program.polarWebhookSecret] : []),
  verify,
  parse,
  read(event, program) {
    if (event.type === 'order.paid') return readOrder(event, program)
    if (event.type === 'order.refunded') {
      const id = textOf(event.data.id)
      if (!id) return ignored('order.refunded without an order id: no sale to find')
      return { kind: 'refund', transactionIds: [`polar_${id}`], reason: 'refund', what: `Refund of order ${id}` }
    }
    return ignored(`Event type ${event.type} is not used: only ${TYPES.join(', ')} are read`)
  },
  sign(payload, secret, nowSeconds, id = `msg_${nowSeconds}`) {
    const signature = hmacBase64(new TextEncoder().encode(secret), `${id}.${nowSeconds}.`, payload)
    return { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds), 'webhook-signature': `v1,${signature}` }
  },
}
