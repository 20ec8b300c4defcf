import type { SaleRejection } from '../../domain/attribution.ts'
import { DEFAULT_CURRENCIES } from '../../domain/currency.ts'
import { parseOccurredAt, occurredAtInBounds } from '../../domain/occurred-at.ts'
import { recordSale, type SaleInput, type SaleOutcome } from '../../tracking/sale.ts'
import { requireProgramKey } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { directPost, type DirectRoute } from '../pipeline/direct.ts'
import { acceptedBody } from '../pipeline/body.ts'
import { quoteValue } from '../pipeline/quote.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { money, sale } from '../../domain/messages.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { identifier } from './guards.ts'
import { SaleBody } from './schemas.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { SaleData, answer } from './answers.ts'

const check = bodyChecker(SaleBody)

/**
 * A sale body checked in docs/errors.md's order (the 400 rows, then the 422 currency) and turned into
 * the input of recordSale. Test mode may omit transaction_id.
 */
export function parseSale(received: unknown, now: number, currencies: readonly string[] = DEFAULT_CURRENCIES): SaleInput {
  const body = acceptedBody(received)
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, any>
  // docs/decisions.md, Test data: livemode false marks test data exactly like additional_data.test_mode.
  const testMode = raw.additional_data?.test_mode === true || raw.livemode === false
  if ((raw.transaction_id === undefined || raw.transaction_id === null) && !testMode) throw new HttpError(400, sale.transactionId)
  const input = check(body)
  // docs/api.md counts characters; the schema's maxLength counts UTF-16 units (two for an emoji).
  if (input.provider_payment_id !== undefined && [...input.provider_payment_id].length > 255)
    throw new HttpError(400, sale.providerPaymentId)
  let occurredAt = now
  if (input.occurred_at !== undefined) {
    const parsed = parseOccurredAt(input.occurred_at)
    if (parsed === null || !occurredAtInBounds(parsed, now)) throw new HttpError(400, sale.occurredAt)
    occurredAt = parsed
  }
  // Omitted currency is USD (docs/decisions.md); a given one is one of the program's codes exactly, in
  // capitals as docs/api.md writes them ("usd" is 422: the processor events' lower case is read in their
  // own parsers). The program's list (docs/decisions.md, Selling anywhere) holds only active ISO codes.
  const given: unknown = input.currency
  const currency = given === undefined ? 'USD' : given
  if (typeof currency !== 'string' || !currencies.includes(currency)) {
    throw new HttpError(422, sale.currency(quoteValue(given)))
  }
  return {
    transactionId: input.transaction_id ?? null,
    amountCents: input.amount_cents,
    currency,
    occurredAt,
    customerKey: identifier(input.customer_key),
    clickId: identifier(input.click_id),
    coupon: identifier(input.coupon_code) === null ? null : { code: identifier(input.coupon_code)! },
    provider: input.provider ?? null,
    providerPaymentId: input.provider_payment_id ?? null,
    livemode: input.livemode ?? null,
    testMode,
  }
}

const rejections: Record<SaleRejection, string> = {
  customer_not_found: sale.customerNotFound,
  foreign_program: sale.noAttribution,
  window_expired: sale.noAttribution,
  no_relationship: sale.noRelationship,
}

/** The answer to a sale outcome (docs/decisions.md success body), or its error with error.code (docs/errors.md). */
export function saleAnswer(deps: Deps, request: Request, outcome: SaleOutcome) {
  switch (outcome.kind) {
    case 'recorded': {
      const { sale: s, commission: c } = outcome
      const commission = c && { commission_id: c.id, partner_id: c.partnerId, amount_cents: c.amountCents }
      return ok({ sale_id: s.id, transaction_id: s.transactionId, amount_cents: s.amountCents, currency: s.currency, commission })
    }
    case 'duplicate':
      // details.sale_id only for the caller's own sale (docs/decisions.md, Hostile input).
      throw new HttpError(409, sale.duplicate, { details: outcome.saleId === null ? {} : { sale_id: outcome.saleId } })
    case 'rejected':
      throw new HttpError(400, rejections[outcome.reason], { code: 'no_attribution' })
    case 'too_large':
      throw new HttpError(400, money.balance(outcome.currency))
    case 'unattributed':
      // The sale is stored (a resend answers 409 with its id); docs/errors.md notes no details here.
      throw new HttpError(400, sale.partnerRequired, { code: 'no_attribution' })
    case 'commission_failed':
      deps.log({
        level: 'error',
        request_id: stateOf(request).id,
        path: '/api/v1/track/sale',
        transaction_id: outcome.sale.transactionId,
        error: String((outcome.error as Error)?.stack ?? outcome.error),
      })
      throw new HttpError(500, sale.commissionFailed)
  }
}

/** POST /api/v1/track/sale: server only, program key required. */
export function trackSaleRoute(deps: Deps): DirectRoute {
  return directPost(
    'track-sale',
    '/api/v1/track/sale',
    async ({ body, request }) => {
      const { program } = requireProgramKey(deps, request, 'sale')
      const input = parseSale(body, deps.clock.now(), program.currencies)
      return saleAnswer(deps, request, await recordSale(deps, program, input))
    },
    doc('Record a sale and its commission', 'tracking', {
      body: SaleBody,
      answer: answer(SaleData),
      security: 'programKey',
      description:
        'Answers { data: { sale_id, transaction_id, amount_cents, currency, commission: { commission_id, partner_id, amount_cents } | null }, error: null }. Errors carry error.code; a repeated transaction_id answers 409 duplicate_transaction with error.details.sale_id.',
    }),
  )
}
