import { describe, expect, test } from 'bun:test'
import {
  CLICK_SIGNALS,
  type CommissionFacts,
  clickSignals,
  FRAUD_FLAGS,
  FLAG_EXPLANATIONS,
  fraudFlags,
  hasAdClickId,
  inBurst,
  isDisposableDomain,
  isSelfReferral,
  isSharedDomain,
  reviewOf,
  installDomainLists,
} from '../../src/domain/fraud.ts'
import { domainLists } from '../../src/domain/fraud-lists.ts'

// The lists are handed over by their caller (tracking/fraud-check.ts loads them before a check).
installDomainLists(domainLists)

const HOUR = 3_600_000
const T0 = Date.parse('2026-06-01T10:00:00Z')
const none: CommissionFacts = { customerEmails: [], partnerEmail: null, sameIp: false, clickSignals: null }

// docs/decisions.md, Fraud signals and review: self_referral.
describe('self_referral', () => {
  const rows: [string, string | null, string | null, boolean][] = [
    ['the same address', 'ann@acme-corp.com', 'ann@acme-corp.com', true],
    ['the same address in other case and spacing', ' Ann@Acme-Corp.COM ', 'ann@acme-corp.com', true],
    ['the same address with a +tag', 'ann+shop@gmail.com', 'ann@gmail.com', true],
    ['the same public mailbox', 'ann@gmail.com', 'ann@gmail.com', true],
    ['another address at the partner’s company domain', 'bob@acme-corp.com', 'ann@acme-corp.com', true],
    ['another address at a public provider', 'bob@gmail.com', 'ann@gmail.com', false],
    ['another address at another public provider', 'bob@outlook.com', 'ann@outlook.com', false],
    ['another address at a reserved example domain', 'bob@example.com', 'ann@example.com', false],
    ['another address under a .test name', 'bob@shop.test', 'ann@shop.test', false],
    ['another address at a disposable service', 'bob@mailinator.com', 'ann@mailinator.com', false],
    ['a different domain', 'ann@acme-corp.com', 'ann@other-corp.com', false],
    ['a subdomain is not the domain', 'bob@eu.acme-corp.com', 'ann@acme-corp.com', false],
    ['no customer email', null, 'ann@acme-corp.com', false],
    ['no partner email', 'ann@acme-corp.com', null, false],
    ['not an address', 'acme-corp.com', 'ann@acme-corp.com', false],
    ['an empty local part', '@acme-corp.com', '@acme-corp.com', false],
  ]
  for (const [name, customer, partner, fires] of rows)
    test(`${name}: ${fires ? 'flags' : 'does not flag'}`, () => expect(isSelfReferral(customer, partner)).toBe(fires))
})

describe('disposable_email', () => {
  const rows: [string, string, boolean][] = [
    ['a listed domain', 'mailinator.com', true],
    ['another listed domain', 'yopmail.com', true],
    ['a subdomain of a listed domain', 'x.mailinator.com', true],
    ['a public provider', 'gmail.com', false],
    ['a company domain', 'acme-corp.com', false],
  ]
  for (const [name, domain, fires] of rows) test(`${name} (${domain}): ${fires}`, () => expect(isDisposableDomain(domain)).toBe(fires))

  test('the flag comes from the customer’s emails only, the lead’s or the payment’s', () => {
    expect(fraudFlags({ ...none, customerEmails: ['c@mailinator.com', null] })).toEqual(['disposable_email'])
    expect(fraudFlags({ ...none, customerEmails: ['c@gmail.com', 'c@yopmail.com'] })).toEqual(['disposable_email'])
    expect(fraudFlags({ ...none, partnerEmail: 'p@mailinator.com', customerEmails: ['c@gmail.com'] })).toEqual([])
  })

  test('self_referral looks at both: a throwaway lead email does not hide the partner’s own at the checkout', () => {
    expect(fraudFlags({ ...none, partnerEmail: 'ann@acme-corp.com', customerEmails: ['x@gmail.com', 'ann@acme-corp.com'] })).toEqual([
      'self_referral',
    ])
  })
})

describe('shared domains', () => {
  const rows: [string, boolean][] = [
    ['gmail.com', true],
    ['example.org', true],
    ['mail.example', true],
    ['shop.localhost', true],
    ['acme-corp.com', false],
  ]
  for (const [domain, shared] of rows) test(`${domain}: ${shared}`, () => expect(isSharedDomain(domain)).toBe(shared))
})

describe('paid_ads', () => {
  const rows: [string, string, boolean][] = [
    ['gclid', '?aff=ann&gclid=abc', true],
    ['gbraid', '?gbraid=1&aff=ann', true],
    ['wbraid', '?aff=ann&wbraid=1', true],
    ['fbclid', '?aff=ann&fbclid=x', true],
    ['msclkid', '?aff=ann&msclkid=x', true],
    ['ttclid', '?aff=ann&ttclid=x', true],
    ['twclid', '?aff=ann&twclid=x', true],
    ['li_fat_id', '?aff=ann&li_fat_id=x', true],
    ['an id without a value', '?aff=ann&gclid', true],
    ['only aff', '?aff=ann', false],
    ['utm parameters', '?aff=ann&utm_source=google&utm_medium=cpc', false],
    ['an id as a value, not a name', '?aff=gclid&ref=fbclid', false],
    ['a name that only starts like an id', '?aff=ann&gclid_x=1', false],
    ['no query', '', false],
  ]
  for (const [name, search, fires] of rows) test(`${name}: ${fires}`, () => expect(hasAdClickId(search)).toBe(fires))
})

// "the link had over 50 clicks from the click's IP in the hour before it": the clicks before this one.
describe('click_burst', () => {
  const rows: [string, number, number, number, boolean][] = [
    ['50 clicks before it in the current hour', 0, 50, T0 + 10 * 60_000, false],
    ['51 clicks before it in the current hour', 0, 51, T0 + 10 * 60_000, true],
    ['the previous hour counts whole at the top of the hour', 51, 1, T0, true],
    ['half of the previous hour still counts half an hour in', 80, 10, T0 + HOUR / 2, false],
    ['… and tips over with more of this hour', 80, 12, T0 + HOUR / 2, true],
    ['the previous hour no longer counts at its end', 1000, 1, T0 + HOUR - 1, false],
  ]
  for (const [name, previous, current, now, fires] of rows)
    test(`${name}: ${fires}`, () => expect(inBurst(previous, current, now)).toBe(fires))
})

// visitorKey is networkOf (domain/network.ts): its table is test/domain/network.test.ts.

describe('click signal bits', () => {
  test('none is null, so that an ordinary click stores nothing', () => expect(clickSignals('?aff=ann', false)).toBeNull())
  test('both bits', () => expect(clickSignals('?aff=ann&gclid=1', true)).toBe(CLICK_SIGNALS.paidAds | CLICK_SIGNALS.burst))
  test('the bits make their flags', () => {
    expect(fraudFlags({ ...none, clickSignals: CLICK_SIGNALS.paidAds })).toEqual(['paid_ads'])
    expect(fraudFlags({ ...none, clickSignals: CLICK_SIGNALS.burst })).toEqual(['click_burst'])
  })
})

describe('every flag', () => {
  test('are listed in FRAUD_FLAGS order, with words for each', () => {
    const flags = fraudFlags({
      customerEmails: ['ann@mailinator.com'],
      partnerEmail: 'ann@mailinator.com',
      sameIp: true,
      clickSignals: CLICK_SIGNALS.paidAds | CLICK_SIGNALS.burst,
    })
    expect(flags).toEqual([...FRAUD_FLAGS])
    for (const flag of FRAUD_FLAGS) expect(FLAG_EXPLANATIONS[flag].length).toBeGreaterThan(20)
  })
  test('no facts, no flag', () => expect(fraudFlags(none)).toEqual([]))
})

// fraud_review: hold (default), flag, off.
describe('reviewOf', () => {
  const rows: [string, Parameters<typeof reviewOf>[0], string[], { flags: string[]; held: boolean }][] = [
    ['hold with a flag holds', 'hold', ['same_ip'], { flags: ['same_ip'], held: true }],
    ['hold without a flag does not', 'hold', [], { flags: [], held: false }],
    ['flag keeps the flags and holds nothing', 'flag', ['paid_ads'], { flags: ['paid_ads'], held: false }],
    ['off drops every flag', 'off', ['paid_ads', 'click_burst'], { flags: [], held: false }],
  ]
  for (const [name, mode, flags, expected] of rows) test(name, () => expect(reviewOf(mode, flags as never)).toEqual(expected as never))
})
