import { describe, expect, test } from 'bun:test'
import {
  balances,
  dueAtOf,
  entryStatus,
  formatAmount,
  minimumCents,
  planPayouts,
  type LedgerFacts,
  type LedgerGroup,
} from '../../src/domain/payout.ts'

const DAY = 86_400_000
const T0 = Date.parse('2026-06-01T00:00:00Z')
const commission = (payout: LedgerFacts['payout'] = null, pair: LedgerFacts['pair'] = null, held = false): LedgerFacts => ({
  kind: 'commission',
  createdAt: T0,
  payout,
  pair,
  held,
})
const reversal = (payout: LedgerFacts['payout'], commissionPayout: LedgerFacts['payout']): LedgerFacts => ({
  kind: 'reversal',
  createdAt: T0 + DAY,
  payout,
  pair: { payout: commissionPayout },
  held: false,
})

// docs/decisions.md, Payouts: pending (younger than the holding period), due (past it, in no payout),
// in_payout, paid, reversed (fully reversed before any payout).
const statuses: [string, LedgerFacts, number, number, string][] = [
  ['a commission younger than the holding period is pending', commission(), 30, T0 + 29 * DAY, 'pending'],
  ['a commission one millisecond short of the holding period is pending', commission(), 30, T0 + 30 * DAY - 1, 'pending'],
  ['a commission exactly the holding period old is due', commission(), 30, T0 + 30 * DAY, 'due'],
  ['a holding period of 0 makes a commission due at once', commission(), 0, T0, 'due'],
  ['a commission in a pending payout is in_payout', commission('pending'), 30, T0 + 40 * DAY, 'in_payout'],
  ['a commission in a paid payout is paid', commission('paid'), 30, T0 + 40 * DAY, 'paid'],
  // docs/decisions.md, Fraud signals and review: held until reviewed, whatever its age; a refund still reverses it.
  ['a held commission is held before the holding period', commission(null, null, true), 30, T0 + DAY, 'held'],
  ['a held commission is held past the holding period', commission(null, null, true), 30, T0 + 40 * DAY, 'held'],
  ['a held commission reversed is reversed', commission(null, { payout: null }, true), 30, T0 + 2 * DAY, 'reversed'],
  ['a commission reversed while pending is reversed', commission(null, { payout: null }), 30, T0 + 2 * DAY, 'reversed'],
  ['a commission reversed while due is reversed', commission(null, { payout: null }), 30, T0 + 40 * DAY, 'reversed'],
  ['a paid commission stays paid after its reversal', commission('paid', { payout: null }), 30, T0 + 40 * DAY, 'paid'],
  ['the reversal of a commission reversed before any payout is reversed too', reversal(null, null), 30, T0 + 2 * DAY, 'reversed'],
  ['the reversal of a paid commission is due at once', reversal(null, 'paid'), 30, T0 + DAY, 'due'],
  ['the reversal of a commission in a pending payout is due at once', reversal(null, 'pending'), 30, T0 + DAY, 'due'],
  ['a reversal netted in a pending payout is in_payout', reversal('pending', 'paid'), 30, T0 + 2 * DAY, 'in_payout'],
  ['a reversal netted in a paid payout is paid', reversal('paid', 'paid'), 30, T0 + 2 * DAY, 'paid'],
  [
    'a commission whose payout was canceled while its reversal is netted elsewhere is due again',
    commission(null, { payout: 'pending' }),
    30,
    T0 + 40 * DAY,
    'due',
  ],
]

describe('entryStatus', () => {
  for (const [why, entry, holding, now, expected] of statuses) {
    test(why, () => expect(entryStatus(entry, holding, now)).toBe(expected as never))
  }
})

describe('minimumCents', () => {
  const cases: [number, string, number][] = [
    [0, 'USD', 0],
    [50, 'USD', 5000],
    [19.99, 'EUR', 1999],
    [12.345, 'USD', 1235],
    [50, 'VND', 50],
    [12.5, 'VND', 13],
  ]
  for (const [minimum, currency, expected] of cases) {
    test(`minimum_payout ${minimum} in ${currency} is ${expected} minor units`, () =>
      expect(minimumCents(minimum, currency)).toBe(expected))
  }
})

describe('planPayouts', () => {
  const e = (id: number, partnerId: number, currency: string, amountCents: number) => ({ id, partnerId, currency, amountCents })

  test('one payout per partner and currency, netting reversals', () => {
    expect(
      planPayouts([e(1, 7, 'USD', 500), e(2, 7, 'USD', 300), e(3, 7, 'EUR', 200), e(4, 8, 'USD', 100), e(5, 7, 'USD', -300)], 0),
    ).toEqual([
      { partnerId: 7, currency: 'EUR', amountCents: 200, entryIds: [3] },
      { partnerId: 7, currency: 'USD', amountCents: 500, entryIds: [1, 2, 5] },
      { partnerId: 8, currency: 'USD', amountCents: 100, entryIds: [4] },
    ])
  })

  test('a negative net makes no payout for that currency, and the other currency still pays', () => {
    expect(planPayouts([e(1, 7, 'USD', 100), e(2, 7, 'USD', -500), e(3, 7, 'EUR', 100)], 0)).toEqual([
      { partnerId: 7, currency: 'EUR', amountCents: 100, entryIds: [3] },
    ])
  })

  test('a net of exactly zero makes no payout', () => {
    expect(planPayouts([e(1, 7, 'USD', 500), e(2, 7, 'USD', -500)], 0)).toEqual([])
  })

  test('a net below the minimum makes no payout; at the minimum it does', () => {
    expect(planPayouts([e(1, 7, 'USD', 4999)], 50)).toEqual([])
    expect(planPayouts([e(1, 7, 'USD', 5000)], 50)).toEqual([{ partnerId: 7, currency: 'USD', amountCents: 5000, entryIds: [1] }])
    expect(planPayouts([e(1, 7, 'VND', 50)], 50)).toEqual([{ partnerId: 7, currency: 'VND', amountCents: 50, entryIds: [1] }])
  })

  test('nothing due plans nothing', () => expect(planPayouts([], 0)).toEqual([]))
})

describe('formatAmount', () => {
  const cases: [number, string, string][] = [
    [12345, 'USD', '123.45'],
    [5, 'EUR', '0.05'],
    [100, 'USD', '1.00'],
    [0, 'USD', '0.00'],
    [-250, 'USD', '-2.50'],
    [5000, 'VND', '5000'],
    [9_007_199_254_740_991, 'USD', '90071992547409.91'],
  ]
  for (const [cents, currency, expected] of cases) {
    test(`${cents} ${currency} is written ${expected}`, () => expect(formatAmount(cents, currency)).toBe(expected))
  }
})

describe('dueAtOf', () => {
  test('a commission or bonus is due the holding period after it is booked, a reversal at once', () => {
    expect(dueAtOf('commission', T0, 30)).toBe(T0 + 30 * DAY)
    expect(dueAtOf('bonus', T0, 7)).toBe(T0 + 7 * DAY)
    expect(dueAtOf('reversal', T0, 30)).toBe(T0)
  })

  test('the due time booked with an entry wins over the holding period of now', () => {
    const booked = { ...commission(), dueAt: T0 + 7 * DAY }
    expect(entryStatus(booked, 30, T0 + 7 * DAY)).toBe('due')
    expect(entryStatus(booked, 0, T0 + 7 * DAY - 1)).toBe('pending')
  })
})

describe('balances', () => {
  const g = (
    kind: LedgerGroup['kind'],
    amountCents: number,
    payout: LedgerGroup['payout'],
    pair: LedgerGroup['pair'],
    due: boolean,
    currency = 'USD',
    held = false,
  ): LedgerGroup => ({ partnerId: 7, currency, kind, payout, pair, held, due, amountCents })
  const zero = { partnerId: 7, currency: 'USD', booked: 0, pending: 0, due: 0, inPayout: 0, paid: 0, held: 0, reversed: 0 }

  test('a held commission counts as held, due or not, until it is reversed', () => {
    expect(balances([g('commission', 300, null, null, true, 'USD', true), g('commission', 100, null, null, false, 'USD', true)])).toEqual([
      { ...zero, booked: 400, held: 400 },
    ])
    expect(
      balances([g('commission', 300, null, { payout: null }, true, 'USD', true), g('reversal', -300, null, { payout: null }, true)]),
    ).toEqual([{ ...zero, booked: 300, reversed: 300 }])
  })

  test('each status is added up; booked counts every commission', () => {
    expect(
      balances([
        g('commission', 100, null, null, false),
        g('commission', 200, null, null, true),
        g('commission', 400, 'pending', null, true),
        g('commission', 800, 'paid', null, true),
      ]),
    ).toEqual([{ ...zero, booked: 1500, pending: 100, due: 200, inPayout: 400, paid: 800 }])
  })

  test('a pair reversed before any payout counts in booked and reversed only', () => {
    expect(balances([g('commission', 500, null, { payout: null }, true), g('reversal', -500, null, { payout: null }, true)])).toEqual([
      { ...zero, booked: 500, reversed: 500 },
    ])
  })

  test('the reversal of a paid commission is reversed and due negative: paid + due + reversed = booked', () => {
    expect(balances([g('commission', 500, 'paid', { payout: null }, true), g('reversal', -500, null, { payout: 'paid' }, true)])).toEqual([
      { ...zero, booked: 500, paid: 500, due: -500, reversed: 500 },
    ])
  })

  test('one balance per partner and currency', () => {
    expect(balances([g('commission', 5, null, null, true, 'VND'), g('commission', 100, null, null, true)]).map((b) => b.currency)).toEqual([
      'USD',
      'VND',
    ])
  })
})
