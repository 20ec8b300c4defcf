/**
 * Paddle Billing (docs/processors/paddle.md). Signature: `Paddle-Signature: ts=<unix>;h1=<hex
 * HMAC-SHA256(secret, ts + ":" + raw body)>` (developer.paddle.com/webhooks/signature-verification),
 * refused once older than 5 s, as Paddle's SDK (WebhooksValidator) refuses it. Events: the
 * notification envelope `{ event_id, event_type, occurred_at, data }`; `transaction.completed` is
 * a sale, an approved `refund` or `chargeback` adjustment a refund of its transaction. Amounts are
 * strings in the currency's lowest denomination (ISO 4217's minor unit).
 */
import { HEX_SHA256 } from '../domain/stripe-signature.ts'
import {
  amountOf,
  hmacHex,
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

/** Paddle's SDK: a signature older than this many seconds is refused. */
export const PADDLE_TOLERANCE_SECONDS = 5
/**
 * Paddle's SDK refuses no time ahead; svc refuses one more than 5 minutes ahead (the clock skew the
 * other processors allow), so that a signature made for the future cannot be kept and replayed later.
 */
export const PADDLE_FUTURE_SECONDS = 300

function verify(raw: Uint8Array, headers: Headers, secrets: readonly string[], nowMs: number): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' }
  const header = headers.get('paddle-signature')
  if (!header) return { ok: false, reason: 'missing_header' }
  let ts: number | null = null
  const signatures: string[] = []
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2).map((s) => s.trim())
    if (key === 'ts' && value && /^\d{1,12}$/.test(value)) ts = Number(value)
    // Several h1 while Paddle rotates the secret; any one may match.
    else if (key === 'h1' && value && HEX_SHA256.test(value.toLowerCase())) signatures.push(value.toLowerCase())
  }
  if (ts === null || signatures.length === 0) return { ok: false, reason: 'malformed_header' }
  const expected = secrets.map((secret) => hmacHex(secret, `${ts}:`, raw))
  if (!anySame(expected, signatures)) return { ok: false, reason: 'mismatch' }
  if (nowMs > (ts + PADDLE_TOLERANCE_SECONDS) * 1000) return { ok: false, reason: 'stale' }
  if (ts - Math.floor(nowMs / 1000) > PADDLE_FUTURE_SECONDS) return { ok: false, reason: 'future' }
  return { ok: true }
}

function parse(body: unknown): ProcessorEvent | null {
  const envelope = objectOf(body)
  const data = objectOf(envelope?.data)
  const id = textOf(envelope?.event_id)
  const type = textOf(envelope?.event_type)
  if (!envelope || !data || !id || !type) return null
  return { id: `paddle:${id}`, type, livemode: null, account: null, createdAt: timeOf(envelope.occurred_at), data }
}

function readTransaction(event: ProcessorEvent, program: ProgramFacts): Reading {
  const txn = event.data
  const id = textOf(txn.id)
  if (!id) return ignored('transaction.completed without a transaction id: not read')
  const keys = keysOf(txn.custom_data)
  const other = otherProgram(keys, program)
  if (other) return other
  const totals = objectOf(objectOf(txn.details)?.totals) ?? {}
  const total = amountOf(totals.total)
  const tax = amountOf(totals.tax) ?? 0
  if (total === null) return ignored(`Transaction ${id} has no details.totals.total: not read`)
  const amount = Math.max(total - tax, 0)
  const customer = textOf(txn.customer_id)
  const origin = textOf(txn.origin)
  return {
    kind: 'sale',
    sale: {
      transactionId: id,
      providerPaymentId: id,
      amountCents: amount,
      currency: textOf(txn.currency_code ?? totals.currency_code)?.toUpperCase() ?? null,
      occurredAt: timeOf(txn.billed_at) ?? event.createdAt,
      billingReason: origin === 'subscription_recurring' ? 'renewal' : null,
      keys,
      promotionCodes: [],
      stripeCustomer: null,
      processorCustomer: customer ? `paddle:${customer}` : null,
      customerEmail: null,
      noSale: zeroAmount(amount),
      testMode: false,
    },
  }
}

function readAdjustment(event: ProcessorEvent): Reading {
  const adjustment = event.data
  const action = textOf(adjustment.action)
  const status = textOf(adjustment.status)
  const transaction = textOf(adjustment.transaction_id)
  if (action !== 'refund' && action !== 'chargeback')
    return ignored(`Adjustment action ${action ?? '(none)'}: only refund and chargeback reverse a sale`)
  if (status !== 'approved') return ignored(`Adjustment ${action} is ${status ?? '(no status)'}: only an approved one reverses the sale`)
  if (!transaction) return ignored('Adjustment without a transaction_id: no sale to find')
  return { kind: 'refund', transactionIds: [transaction], reason: action, what: `Adjustment ${textOf(adjustment.id) ?? ''} (${action})` }
}

const TYPES = ['transaction.completed', 'adjustment.created', 'adjustment.updated'] as const

export const paddle: Processor = {
  name: 'paddle',
  label: 'Paddle',
  header: 'Paddle-Signature',
  toleranceSeconds: PADDLE_TOLERANCE_SECONDS,
  shape: 'JSON with event_id, event_type and data',
  handledTypes: TYPES,
  secretsOf: (program) => (program.paddleWebhookSecret ? [program.paddleWebhookSecret] : []),
  verify,
  parse,
  read(event, program) {
    if (event.type === 'transaction.completed') return readTransaction(event, program)
    if (event.type === 'adjustment.created' || event.type === 'adjustment.updated') return readAdjustment(event)
    return ignored(`Event type ${event.type} is not used: only ${TYPES.join(', ')} are read`)
  },
  sign: (payload, secret, nowSeconds) => ({ 'paddle-signature': `ts=${nowSeconds};h1=${hmacHex(secret, `${nowSeconds}:`, payload)}` }),
}
