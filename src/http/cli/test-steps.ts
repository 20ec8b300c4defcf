import { referralUrlOf } from '../../domain/site.ts'
import type { TestFixture } from '../../db/cli-store.ts'
import { newToken } from '../../db/credentials.ts'
import type { Program } from '../../db/schema.ts'
import { trackClick } from '../../tracking/click.ts'
import { recordLead } from '../../tracking/lead.ts'
import { recordSale } from '../../tracking/sale.ts'
import type { Deps } from '../deps.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { clickFailure } from '../track/click.ts'
import { leadAnswer } from '../track/lead.ts'
import { saleAnswer } from '../track/sale.ts'

// The steps of a synthetic test event. Each goes through the very use cases the tracking
// endpoints use (trackClick, recordLead, recordSale and their answers), with
// test_mode set, so a test event proves the live path, and a refusal throws the endpoint's own
// HttpError. Nothing here decides attribution or commission by itself.

/** The amount of a synthetic sale: $49.00 (any positive amount would do). */
export const TEST_SALE_CENTS = 4900

export interface StepContext {
  deps: Deps
  request: Request
  program: Program
  fixture: TestFixture
}

/** A test click on the fixture link, resolved from its affiliate_url as the click endpoint does. */
export async function testClick({ deps, request, program, fixture }: StepContext) {
  const affiliateUrl = referralUrlOf(program, fixture.shortLink)
  const outcome = await trackClick(deps, {
    affiliateUrl,
    clickId: null,
    testMode: true,
    ip: stateOf(request).ip,
    userAgent: request.headers.get('user-agent'),
  })
  if (outcome.kind === 'refused') throw clickFailure(outcome.reason)
  return { click_id: outcome.clickId, affiliate_url: affiliateUrl, partner_id: outcome.partnerId }
}

/** A server-mode test lead for a new synthetic customer of `clickId`. */
export async function testLead({ deps, program }: StepContext, clickId: string) {
  // customer_key is unique per program: each synthetic customer gets a fresh one.
  const customerKey = newToken('svc_test_', 9)
  const answer = leadAnswer(await recordLead(deps, program, { clickId, customerKey, email: null, testMode: true, mode: 'server' }))
  return { customer_key: customerKey, ...answer.data }
}

/** A test sale (transaction_id left to test mode's test_txn_<timestamp>) for a customer key or click. */
export async function testSale({ deps, request, program }: StepContext, by: { customerKey?: string; clickId?: string }) {
  const outcome = await recordSale(deps, program, {
    transactionId: null,
    amountCents: TEST_SALE_CENTS,
    currency: 'USD',
    customerKey: by.customerKey ?? null,
    clickId: by.clickId ?? null,
    occurredAt: deps.clock.now(),
    provider: null,
    providerPaymentId: null,
    livemode: null,
    testMode: true,
  })
  return saleAnswer(deps, request, outcome).data
}
