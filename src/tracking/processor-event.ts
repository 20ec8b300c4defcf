import { money } from '../domain/messages.ts'
import { occurredAtInBounds } from '../domain/occurred-at.ts'
import type { Processor, ProcessorEvent, ProcessorSale, Reading } from '../processors/processor.ts'
import { uniqueViolation } from '../db/errors.ts'
import type { EventOutcome } from '../db/processor-events.ts'
import type { Program } from '../db/schema.ts'
import type { TrackingDeps } from './deps.ts'
import { settleLeadInUnit } from './lead.ts'
import { fraudListsReady } from './fraud-check.ts'
import { type RefundOutcome, recordRefundInUnit } from './refund.ts'
import { recordSaleInUnit, type SaleOutcome } from './sale.ts'
import { formatAmount } from '../domain/payout.ts'

export type Received =
  | { replayed: true }
  | { replayed: false; outcome: EventOutcome; detail: string; saleId: number | null; error?: unknown }

type Result = Omit<Extract<Received, { replayed: false }>, 'replayed'>

/**
 * Stores a verified processor event and its effects in one writer unit (issue 6), so that a crash
 * never leaves one without the other: the event row first (its UNIQUE event_id makes a replay
 * roll back and change nothing), then what the processor reads it as (src/processors/): the
 * provisional lead it settles and the sale it records through the lead and sale paths of the
 * tracking endpoints, or the refund. `program` is null for a Stripe Connect event whose account no
 * program claims; `unrouted` then says why, and only the row is stored.
 */
export async function receiveProcessorEvent(
  deps: TrackingDeps,
  processor: Processor,
  event: ProcessorEvent,
  program: Program | null,
  unrouted = '',
): Promise<Received> {
  const { events } = deps.database.stores
  // The event may book a commission: the fraud rules' lists are loaded before its unit.
  if (program && program.fraudReview !== 'off') await fraudListsReady()
  try {
    return await deps.database.writer.run((): Received => {
      const now = deps.clock.now()
      const id = events.claim({
        eventId: event.id,
        programId: program?.id ?? null,
        type: event.type,
        livemode: event.livemode,
        createdAt: now,
      })
      const result: Result = program
        ? apply(deps, program, processor, event, processor.read(event, program), now)
        : { outcome: 'ignored', detail: unrouted, saleId: null }
      events.settle(id, result.outcome, result.detail, result.saleId)
      return { replayed: false, ...result }
    })
  } catch (error) {
    if (uniqueViolation(error)?.on === 'event_id') return { replayed: true }
    throw error
  }
}

function apply(deps: TrackingDeps, program: Program, processor: Processor, event: ProcessorEvent, reading: Reading, now: number): Result {
  if (reading.kind === 'ignored') return { outcome: 'ignored', detail: reading.detail, saleId: null }
  if (reading.kind === 'refund') return refund(deps, program, reading)
  // Custom data is often written by checkout code in the buyer's browser: held to /track's limits.
  const tooLong = overLong(reading.sale)
  if (tooLong) return { outcome: 'ignored', detail: tooLong, saleId: null }
  const payment = withRememberedCustomer(deps, program, reading.sale)
  // Only the processor customer names who paid: a customer of the program under that key, or the reader's reason.
  if (reading.sale.unknownCustomer && payment.keys.customerKey !== null)
    if (deps.database.stores.tracking.customerByKey(program.id, payment.keys.customerKey) === null)
      return { outcome: 'ignored', detail: reading.sale.unknownCustomer, saleId: null }
  const settled = settleProvisional(deps, program, payment)
  const lead = settled ? 'Provisional lead settled. ' : ''
  const noSale = payment.noSale ?? unsellable(program, payment)
  if (noSale) return { outcome: settled ? 'settled' : 'ignored', detail: lead + noSale, saleId: null }
  const outcome = recordSale(deps, program, processor, event, payment, now)
  remember(deps, program, payment, outcome)
  const result = describe(outcome, payment)
  // The lead settled although the sale did not attribute: that is the event's effect.
  if (settled && result.outcome === 'ignored') return { ...result, outcome: 'settled', detail: lead + result.detail }
  return { ...result, detail: lead + result.detail }
}

/**
 * docs/api.md, Customer states: an event settles a provisional lead when it resolves the customer. A
 * provisional lead keeps no customer_key, so only svc_click_id finds it; other customers are
 * left to the sale path (which creates a converted customer from a bare click).
 */
function settleProvisional(deps: TrackingDeps, program: Program, { keys }: ProcessorSale): boolean {
  if (keys.clickId === null) return false
  const customer = deps.database.stores.tracking.customerByClick(program.id, keys.clickId)
  if (customer?.status !== 'provisional') return false
  const lead = settleLeadInUnit(deps, program, { clickId: keys.clickId, customerKey: keys.customerKey, email: null, testMode: false })
  return lead.kind === 'recorded' && !lead.provisional
}

/**
 * Why the sale path would refuse this payment's fields (the checks of POST /track/sale), or null.
 * A currency the program does not list is a verified event all the same: answered 200, kept as
 * ignored with this reason (docs/decisions.md, Turn 4, settled).
 */
function unsellable(program: Program, payment: ProcessorSale): string | null {
  if (payment.currency === null || !program.currencies.includes(payment.currency)) {
    return `Currency ${payment.currency ?? '(none)'} is not supported (${program.currencies.join(', ')}): no sale recorded`
  }
  return null
}

/**
 * A payment that names no customer (a renewal without custom data) is the customer its processor
 * customer first paid as (docs/decisions.md, renewals); otherwise a payment without
 * svc_customer_key keys its customer by the processor customer (`paddle:ctm_…`), as the
 * processors' pages say.
 */
function withRememberedCustomer(deps: TrackingDeps, program: Program, sale: ProcessorSale): ProcessorSale {
  if (sale.processorCustomer === null) return sale
  if (sale.keys.clickId === null && sale.keys.customerKey === null) {
    const known = deps.database.stores.events.customerOf(program.id, sale.processorCustomer)
    if (known)
      return { ...sale, keys: { ...sale.keys, customerKey: known.customerKey, clickId: known.customerKey === null ? known.clickId : null } }
  }
  return { ...sale, keys: { ...sale.keys, customerKey: sale.keys.customerKey ?? sale.processorCustomer } }
}

/** Remembers the customer a processor customer paid as, at its first recorded sale. */
function remember(deps: TrackingDeps, program: Program, payment: ProcessorSale, outcome: SaleOutcome): void {
  if (payment.processorCustomer === null || (outcome.kind !== 'recorded' && outcome.kind !== 'unattributed')) return
  const customerId = deps.database.stores.sales.findSale(program.id, outcome.sale.transactionId)?.customerId
  if (customerId != null) deps.database.stores.events.rememberCustomer(program.id, payment.processorCustomer, customerId)
}

/** A refund or chargeback event: the refund path of POST /track/refund, in the event's unit. */
function refund(deps: TrackingDeps, program: Program, reading: Extract<Reading, { kind: 'refund' }>): Result {
  // The first of the ids that names a sale of the program is refunded (an id with none writes nothing).
  for (const transactionId of reading.transactionIds) {
    const outcome = recordRefundInUnit(deps, program, { transactionId, reason: reading.reason, refundReason: null })
    if (outcome.kind !== 'not_found') return refunded(reading, outcome)
  }
  return {
    outcome: 'ignored',
    detail: `${reading.what}: no sale of this program under ${reading.transactionIds.join(' or ')}`,
    saleId: null,
  }
}

/** What a refund event's result says of the sale it refunded, or found refunded already. */
function refunded(reading: Extract<Reading, { kind: 'refund' }>, outcome: Extract<RefundOutcome, { kind: 'refunded' }>): Result {
  if (outcome.repeated)
    return { outcome: 'ignored', detail: `${reading.what}: sale ${outcome.saleId} is already ${outcome.status}`, saleId: outcome.saleId }
  const done = outcome.status === 'refunded' ? 'refunded' : 'charged back'
  return { outcome: 'refunded', detail: `${reading.what}: sale ${outcome.saleId} ${done}, its commission reversed`, saleId: outcome.saleId }
}

/**
 * When the payment happened: the event's time, unless it lies outside the sale path's
 * occurred_at bounds (a replayed old fixture, a skewed clock); then the time it was received.
 * Stripe itself retries for three days, well inside the 30.
 */
const paidAt = (payment: ProcessorSale, now: number) =>
  payment.occurredAt !== null && occurredAtInBounds(payment.occurredAt, now) ? payment.occurredAt : now

/**
 * A payment attributed by its promotion code alone (no svc_ keys) keys its customer by the Stripe
 * customer, `stripe:cus_…`: the subscription's later invoices find the same customer (recurring,
 * never a first sale again) instead of creating a new one each time (docs/stripe.md).
 */
function couponCustomerKey(payment: ProcessorSale): string | null {
  if (payment.keys.clickId !== null || payment.promotionCodes.length === 0 || payment.stripeCustomer === null) return null
  return `stripe:${payment.stripeCustomer}`
}

function recordSale(
  deps: TrackingDeps,
  program: Program,
  processor: Processor,
  event: ProcessorEvent,
  payment: ProcessorSale,
  now: number,
): SaleOutcome {
  const { sales } = deps.database.stores
  const input = {
    transactionId: payment.transactionId,
    amountCents: payment.amountCents,
    currency: payment.currency!,
    customerKey: payment.keys.customerKey ?? couponCustomerKey(payment),
    clickId: payment.keys.clickId,
    coupon: payment.promotionCodes.length === 0 ? null : { promotionCodes: payment.promotionCodes },
    customerEmail: payment.customerEmail,
    occurredAt: paidAt(payment, now),
    provider: processor.name,
    providerPaymentId: payment.providerPaymentId,
    livemode: event.livemode,
    // docs/decisions.md, Test data: a test-mode event's sale and commission are test data, never live money.
    testMode: payment.testMode,
  }
  // A nested savepoint: a duplicate transaction_id undoes only the sale path's writes, not the event row.
  const attempt = sales.attempt(() => recordSaleInUnit(deps, program, input))
  if (attempt.ok) return attempt.value
  if (uniqueViolation(attempt.error)?.on !== 'transaction_id') throw attempt.error
  // This program's own sale is a repeat; another program's (a guessable id such as Lemon Squeezy's
  // counting order ids, taken first through that program's key) is named as such, never adopted.
  return { kind: 'duplicate', saleId: sales.findSale(program.id, payment.transactionId)?.id ?? null }
}

const rejections = {
  customer_not_found: 'No customer or click of this program matches svc_customer_key or svc_click_id: not attributed',
  foreign_program: 'The customer belongs to another program: not attributed',
  window_expired: 'The first click is older than the attribution window: not attributed (the next payment is checked again)',
  no_relationship: 'No partner-program relationship found for this customer: not attributed',
} as const

function describe(outcome: SaleOutcome, payment: ProcessorSale): Result {
  const what = `${payment.billingReason ? `${payment.billingReason} ` : ''}payment ${payment.transactionId} (${payment.currency ? `${payment.currency} ${formatAmount(payment.amountCents, payment.currency)}` : payment.amountCents})`
  switch (outcome.kind) {
    case 'recorded': {
      const { sale, commission } = outcome
      const pays = commission
        ? `commission ${sale.currency} ${formatAmount(commission.amountCents, sale.currency)} to partner ${commission.partnerId}`
        : 'no commission: the non-recurring commission type pays on the first sale only'
      return { outcome: 'attributed', detail: `Sale ${sale.id} recorded for ${what}; ${pays}`, saleId: sale.id }
    }
    case 'unattributed':
      return {
        outcome: 'unattributed',
        detail: `Sale ${outcome.sale.id} recorded for ${what} without commission: the customer has no partner`,
        saleId: outcome.sale.id,
      }
    case 'commission_failed':
      return {
        outcome: 'failed',
        detail: `Sale ${outcome.sale.id} recorded for ${what}, but Failed to create commission`,
        saleId: outcome.sale.id,
        error: outcome.error,
      }
    case 'duplicate':
      return outcome.saleId === null
        ? {
            outcome: 'ignored',
            detail: `Another program of this server holds transaction_id ${payment.transactionId} (transaction ids are unique across the server): not recorded here`,
            saleId: null,
          }
        : {
            outcome: 'ignored',
            detail: `A sale is already recorded under transaction_id ${payment.transactionId}: not counted twice`,
            saleId: outcome.saleId,
          }
    case 'rejected':
      return { outcome: 'ignored', detail: `${rejections[outcome.reason]} (${what})`, saleId: null }
    case 'too_large':
      return { outcome: 'ignored', detail: `${money.balance(outcome.currency)} (${what}): not recorded`, saleId: null }
  }
}

/** The first of a payment's texts past the limits /track holds them to (docs/api.md: 255, an email 254), named; else null. */
function overLong(sale: ProcessorSale): string | null {
  const limits: [string, string | null | undefined, number][] = [
    ['transaction id', sale.transactionId, 255],
    ['svc_customer_key', sale.keys.customerKey, 255],
    ['svc_click_id', sale.keys.clickId, 255],
    ["the customer's email", sale.customerEmail, 254],
  ]
  for (const [name, value, most] of limits)
    if (value && [...value].length > most) return `${name} is longer than ${most} characters: not recorded`
  return null
}
