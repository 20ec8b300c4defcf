import { decideSale, type SaleFacts, type SaleRejection, termsFor } from '../domain/attribution.ts'
import { MAX_CENTS } from '../domain/commission.ts'
import { dueAtOf, entryStatus } from '../domain/payout.ts'
import { uniqueViolation } from '../db/errors.ts'
import type { NewSale, SaleStore } from '../db/sale-store.ts'
import type { Commission, Program } from '../db/schema.ts'
import { presentRow } from '../domain/record.ts'
import type { TrackingStore } from '../db/tracking-store.ts'
import type { TrackingDeps } from './deps.ts'
import { commissionStatuses } from './commission-status.ts'
import { checkCommission, fraudListsReady } from './fraud-check.ts'
import { emitSubjectEvent } from './webhook-events.ts'

/**
 * A validated sale, from POST /api/v1/track/sale or a payment-processor event (issue 6): the
 * columns of the sale row (NewSale) plus how its customer is found. transactionId is null only
 * in test mode (then test_txn_<timestamp>).
 */
export type SaleInput = Pick<
  NewSale,
  'amountCents' | 'currency' | 'occurredAt' | 'provider' | 'providerPaymentId' | 'livemode' | 'testMode'
> & {
  transactionId: string | null
  customerKey: string | null
  clickId: string | null
  /** A coupon code the customer used (coupon_code), or a payment's Stripe promotion codes (promo_…); null for none. */
  coupon?: { code: string } | { promotionCodes: string[] } | null
  /** The email the payment names (a processor's checkout), for the fraud rules when the customer's lead gave none. */
  customerEmail?: string | null
  /** A sale recorded by hand may name the partner (an active one of the program), who gets a customer without one. */
  partnerId?: number | null
}

export interface RecordedSale {
  id: number
  transactionId: string
  amountCents: number
  currency: string
}

export type SaleOutcome =
  | { kind: 'recorded'; sale: RecordedSale; commission: { id: number; partnerId: number; amountCents: number } | null }
  /** Stored without commission: the customer has no partner (`partnerId required to create commission`). */
  | { kind: 'unattributed'; sale: RecordedSale }
  /** The sale is stored, its commission is not (`Failed to create commission`). */
  | { kind: 'commission_failed'; sale: RecordedSale; error: unknown }
  | { kind: 'duplicate'; saleId: number | null }
  /** Nothing recorded: the commission would take the partner's unpaid balance past MAX_CENTS. */
  | { kind: 'too_large'; currency: string }
  /** Nothing recorded. */
  | { kind: 'rejected'; reason: SaleRejection }

/** Whether the customer the facts found has no partner yet (or none was found): a named partner may take it. */
const unclaimed = (facts: SaleFacts) =>
  facts.kind === 'unknown' || facts.kind === 'foreign' || (facts.kind === 'customer' && facts.customer.partnerId === null)

/**
 * The customer facts, with the partner the sale names: the owner's choice on a sale recorded by
 * hand, or an active partner's coupon, attributes a customer that has no partner yet (none found,
 * or one without a partner); otherwise the first attribution stands and a code is only recorded.
 * An unknown code changes nothing.
 */
function resolveWithCoupon(deps: TrackingDeps, programId: number, input: SaleInput): { facts: SaleFacts; couponCode: string | null } {
  const { tracking, coupons } = deps.database.stores
  const facts = resolve(tracking, programId, input)
  const customerOf = (f: SaleFacts) => (f.kind === 'customer' ? f.customer : null)
  // Read again in the unit: a partner suspended since the form was sent is credited nothing.
  const named = input.partnerId == null ? null : deps.database.stores.partners.find(programId, input.partnerId)
  if (named?.status === 'active' && input.partnerId != null && unclaimed(facts))
    return {
      facts: { kind: 'named', source: 'manual', customer: customerOf(facts), code: null, partnerId: input.partnerId },
      couponCode: null,
    }
  const wanted = input.coupon
  if (!wanted) return { facts, couponCode: null }
  const coupon =
    'code' in wanted
      ? coupons.match(programId, wanted.code)
      : (wanted.promotionCodes.map((code) => coupons.matchPromotion(programId, code)).find(Boolean) ?? null)
  if (!coupon) return { facts, couponCode: null }
  if (unclaimed(facts)) {
    const named: SaleFacts = {
      kind: 'named',
      source: 'coupon',
      customer: customerOf(facts),
      code: coupon.code,
      partnerId: coupon.partnerId,
    }
    return { facts: named, couponCode: coupon.code }
  }
  return { facts, couponCode: coupon.code }
}

/** customer_key first, then click_id: an existing customer, else a click with no customer yet. */
function resolve(store: TrackingStore, programId: number, input: SaleInput): SaleFacts {
  const byKey = input.customerKey === null ? null : store.customerByKey(programId, input.customerKey)
  if (byKey) return { kind: 'customer', customer: byKey, resolvedBy: 'customer_key' }
  if (input.clickId !== null) {
    const byClick = store.customerByClick(programId, input.clickId)
    if (byClick) return { kind: 'customer', customer: byClick, resolvedBy: 'click_id' }
    const click = store.firstClick(programId, input.clickId)
    if (click) return { kind: 'click', click }
  }
  return store.knownElsewhere(programId, input.clickId, input.customerKey) ? { kind: 'foreign' } : { kind: 'unknown' }
}

/** test_txn_<timestamp>, moved on by a millisecond while taken, so test sales in one ms stay distinct. */
function testTransactionId(sales: SaleStore, now: number): string {
  let stamp = now
  while (sales.saleIdOf(`test_txn_${stamp}`) !== null) stamp++
  return `test_txn_${stamp}`
}

type Decided = Extract<ReturnType<typeof decideSale>, { ok: true }>

/** The writes of an accepted sale, inside the unit: customer, sale, conversion, commission, and their events. */
function book(
  deps: TrackingDeps,
  stores: { store: TrackingStore; sales: SaleStore },
  program: Program,
  input: SaleInput,
  facts: SaleFacts,
  decision: Decided,
  partner: { email: string | null; knownIps: boolean; holdingPeriodDays: number },
  now: number,
): SaleOutcome {
  const { store, sales } = stores
  const transactionId = input.transactionId ?? testTransactionId(sales, now)
  let customerId = facts.kind === 'customer' ? facts.customer.id : facts.kind === 'named' ? (facts.customer?.id ?? null) : null
  if (facts.kind === 'named') {
    if (customerId === null)
      customerId = store.insertCouponCustomer({
        programId: program.id,
        customerKey: input.customerKey,
        partnerId: facts.partnerId,
        testMode: input.testMode,
        now,
      })
    // A test sale credits the coupon's partner with test data only: a live customer keeps no partner from it.
    else if (!input.testMode || facts.customer!.testMode) store.assignPartner(customerId, facts.partnerId)
  }
  if (facts.kind === 'click') {
    customerId = store.insertCustomer({
      programId: program.id,
      customerKey: input.customerKey,
      email: null,
      status: 'converted',
      click: facts.click,
      testMode: input.testMode,
      leadAt: null,
      convertedAt: now,
      now,
    })
  }
  const { amountCents, currency } = input
  // A sale of a test customer (a test click, or the CLI test chain's link) is test data too.
  const known = facts.kind === 'customer' || facts.kind === 'named' ? facts.customer : null
  const testMode = input.testMode || (known ? known.testMode : facts.kind === 'click' && facts.click.testMode)
  const sale = {
    id: sales.insertSale({
      programId: program.id,
      customerId,
      transactionId,
      amountCents,
      currency,
      occurredAt: input.occurredAt,
      provider: input.provider,
      providerPaymentId: input.providerPaymentId,
      livemode: input.livemode,
      testMode,
      attribution: decision.attribution,
      createdAt: now,
    }),
    transactionId,
    amountCents,
    currency,
  }
  emitSubjectEvent(deps, program.id, 'sale.created', sale.id, null)
  if (!decision.attributed) return { kind: 'unattributed', sale }
  // A test sale converts only a test customer: on a live one it would end the live customer's
  // first-sale commission and its rule 4 checks (test records never count as live).
  if (known && decision.firstSale && (!input.testMode || known.testMode)) store.convertCustomer(customerId!, now)
  if (decision.commissionCents === null) return { kind: 'recorded', sale, commission: null }
  const entry = { partnerId: decision.partnerId, amountCents: decision.commissionCents }
  const review = checkCommission(
    deps,
    program,
    facts,
    { id: decision.partnerId, email: partner.email, knownIps: partner.knownIps },
    input.customerEmail ?? null,
  )
  // docs/decisions.md, Groups: the holding period of the terms that paid it is fixed with the entry.
  const dueAt = dueAtOf('commission', now, partner.holdingPeriodDays)
  const booked = sales.attempt(() =>
    sales.insertCommission({
      programId: program.id,
      saleId: sale.id,
      kind: 'commission',
      currency,
      testMode,
      createdAt: now,
      dueAt,
      ...entry,
      ...review,
    }),
  )
  if (!booked.ok) return { kind: 'commission_failed', sale, error: booked.error }
  // A commission just booked is in no payout and has no reversal: its status is the domain's word on
  // its terms alone, and its review is its hold (bench/README.md, issue 35: the events keep these
  // and the entry's id, not a body).
  const booking = {
    status: entryStatus({ kind: 'commission', createdAt: now, dueAt, payout: null, pair: null, held: review.held }, 0, now),
    review: review.held ? 'held' : null,
  }
  emitSubjectEvent(deps, program.id, 'commission.created', booked.value, booking)
  if (review.held) emitSubjectEvent(deps, program.id, 'commission.held', booked.value, booking)
  return { kind: 'recorded', sale, commission: { id: booked.value, ...entry } }
}

/** A ledger entry as the commissions read route shows it: with its status (and its flags, a column). */
export function commissionData(deps: TrackingDeps, entry: Commission): Record<string, unknown> {
  const status = commissionStatuses(deps, entry.programId, [entry.id]).get(entry.id) ?? null
  return { ...presentRow('commission', entry), status }
}

/**
 * The sale path inside the caller's writer unit (synchronous): resolves the customer, decides
 * attribution (rule 4 window, commission), writes the sale, converts the customer and books the
 * commission. Throws SQLite's UNIQUE violation for a taken transaction_id (uniqueViolation names
 * it); a caller with other writes in its unit runs it in SaleStore.attempt. Payment-processor events
 * (issue 6) use it, so that a later POST /track/sale of the same payment answers 409.
 */
export function recordSaleInUnit(deps: TrackingDeps, program: Program, input: SaleInput): SaleOutcome {
  const { tracking, sales } = deps.database.stores
  const stores = { store: tracking, sales }
  const { facts, couponCode } = resolveWithCoupon(deps, program.id, input)
  // The partner's own terms, then its group's, then the program's (docs/decisions.md, Groups).
  const partnerId =
    facts.kind === 'customer'
      ? facts.customer.partnerId
      : facts.kind === 'click'
        ? facts.click.partnerId
        : facts.kind === 'named'
          ? facts.partnerId
          : null
  const partnerTerms = partnerId === null ? null : deps.database.stores.partners.terms(partnerId)
  const terms = termsFor(program, partnerTerms, partnerTerms?.group ?? null)
  const decision = decideSale(facts, terms, { ...input, couponCode })
  if (decision.ok && decision.attributed && decision.commissionCents !== null) {
    // docs/decisions.md, Hostile input (turn 3): a balance stays a safe integer, or nothing is stored.
    const unpaid = sales.unpaidCommissionCents(program.id, decision.partnerId, input.currency)
    if (unpaid + decision.commissionCents > MAX_CENTS) return { kind: 'too_large', currency: input.currency }
  }
  if (decision.ok)
    return book(
      deps,
      stores,
      program,
      input,
      facts,
      decision,
      {
        email: partnerTerms?.email ?? null,
        knownIps: partnerTerms?.knownIps ?? false,
        holdingPeriodDays: terms.holdingPeriodDays ?? program.holdingPeriodDays,
      },
      deps.clock.now(),
    )
  // A resend of a stored sale answers 409 even when its customer no longer resolves.
  const existing = input.transactionId === null ? null : stores.sales.saleIdOf(input.transactionId)
  return existing !== null
    ? { kind: 'duplicate', saleId: ownSaleId(stores.sales, program, input.transactionId!) }
    : { kind: 'rejected', reason: decision.reason }
}

/**
 * Records a sale in its own writer unit (POST /track/sale). The UNIQUE transaction_id decides
 * duplicates, also between concurrent requests. Never throws for an expected outcome; a database
 * failure other than the duplicate rejects.
 */
export async function recordSale(deps: TrackingDeps, program: Program, input: SaleInput): Promise<SaleOutcome> {
  if (program.fraudReview !== 'off') await fraudListsReady()
  try {
    return await deps.database.writer.run(() => recordSaleInUnit(deps, program, input))
  } catch (error) {
    if (uniqueViolation(error)?.on !== 'transaction_id') throw error
    return { kind: 'duplicate', saleId: ownSaleId(deps.database.stores.sales, program, input.transactionId!) }
  }
}

/**
 * The id of the sale recorded under transaction_id when it is the caller's program's; null when
 * it belongs to another program, whose sale ids a caller must not learn (docs/decisions.md, Hostile input).
 */
function ownSaleId(sales: SaleStore, program: Program, transactionId: string): number | null {
  return sales.findSale(program.id, transactionId)?.id ?? null
}
