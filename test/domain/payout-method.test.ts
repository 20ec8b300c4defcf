import { expect, test } from 'bun:test'
import { payoutDetailsProblem, type PayoutMethod } from '../../src/domain/payout-method.ts'

// docs/decisions.md, Paying partners: what each method's details must be.
const cases: [PayoutMethod, string, string | null][] = [
  ['paypal', 'ada@paypal.test', null],
  ['paypal', 'ada at paypal', 'payout_details must be the PayPal email address'],
  ['paypal', '', 'payout_details are required with a payout_method'],
  ['wise', 'ada@wise.test', null],
  ['wise', '@wise.test', 'payout_details must be the Wise email address'],
  ['bank', 'Ada Lovelace\nIBAN DE89 3704 0044 0532 0130 00', null],
  ['bank', 'x'.repeat(1001), 'payout_details must be a string of at most 1000 characters'],
  ['stripe', 'acct_1Nv0FGQ9RKHgCVdK', null],
  ['stripe', 'acct_', 'payout_details must be a Stripe account id (acct_…)'],
  ['stripe', 'ada@stripe.test', 'payout_details must be a Stripe account id (acct_…)'],
]

test.each(cases)('%s details %p: %p', (method, details, problem) => {
  expect(payoutDetailsProblem(method, details)).toBe(problem)
})
