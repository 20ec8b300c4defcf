import { describe, expect, test } from 'bun:test'
import { commissionCents, type CommissionType, isCurrency, MAX_FIXED_RATE, minorDigitsOf, rateFits } from '../../src/domain/commission.ts'

type Row = [CommissionType, number, number, string, boolean, number | null, string]

// docs/decisions.md, "Success bodies": percent types round(amount × rate / 100); fixed types pay the
// rate in the currency's major unit (VND has no minor unit); non-recurring pay on the first sale only.
const cases: Row[] = [
  ['percent', 10, 4900, 'USD', true, 490, '10% of $49.00'],
  ['percent', 10, 4900, 'USD', false, null, 'percent pays nothing on a later sale'],
  ['percent', 12.5, 999, 'EUR', true, 125, '12.5% of 999 is 124.875, rounded to 125'],
  ['percent', 4.35, 1000, 'USD', true, 44, '4.35% of 1000 is exactly 43.5, rounded half up (not 43 from float error)'],
  ['percent', 1, 49, 'USD', true, 0, '1% of 49 cents rounds to 0'],
  ['percent', 1, 50, 'USD', true, 1, '1% of 50 cents is 0.5, rounded up'],
  ['percent', 30, 1_000_000, 'VND', true, 300_000, 'percent works in VND units'],
  ['recurring_percent', 20, 2500, 'USD', false, 500, 'recurring percent pays on every sale'],
  ['recurring_percent', 20, 2500, 'USD', true, 500, 'recurring percent pays on the first sale too'],
  ['fixed', 5, 4900, 'USD', true, 500, 'fixed 5 USD pays 500 cents'],
  ['fixed', 5, 4900, 'EUR', true, 500, 'fixed 5 EUR pays 500 cents'],
  ['fixed', 5, 100_000, 'VND', true, 5, 'fixed 5 VND pays 5 (no minor unit)'],
  ['fixed', 2.5, 4900, 'USD', true, 250, 'fixed 2.5 USD pays 250 cents'],
  ['fixed', 5, 4900, 'USD', false, null, 'fixed pays nothing on a later sale'],
  ['recurring_fixed', 5, 4900, 'USD', false, 500, 'recurring fixed pays on every sale'],
  ['recurring_fixed', 50_000, 1, 'VND', false, 50_000, 'recurring fixed VND pays the rate as is'],
  ['fixed', 0.015, 100, 'USD', true, 2, 'fixed 0.015 USD is 1.5 cents, rounded half up'],
]

describe('commissionCents', () => {
  for (const [type, rate, amountCents, currency, firstSale, expected, why] of cases) {
    test(`${why}`, () => {
      expect(commissionCents({ type, rate, amountCents, currency, firstSale })).toBe(expected)
    })
  }

  test('a percent commission of a very large amount stays exact', () => {
    // 8,999,999,999,999,999 × 33.333333 / 100 = 2,999,999,969,999,999.67
    expect(
      commissionCents({ type: 'percent', rate: 33.333333, amountCents: 8_999_999_999_999_999, currency: 'VND', firstSale: true }),
    ).toBe(2_999_999_970_000_000)
  })
})

describe('rateFits', () => {
  // A percentage is at most 100 (docs/decisions.md, Hostile input, turn 3: money stays exact); a fixed rate at most MAX_FIXED_RATE.
  const rows: [CommissionType, number, boolean][] = [
    ['percent', 100, true],
    ['percent', 100.01, false],
    ['recurring_percent', 100, true],
    ['recurring_percent', 101, false],
    ['percent', 0.01, true],
    ['percent', 0, false],
    ['fixed', -1, false],
    ['fixed', 101, true],
    ['recurring_fixed', 101, true],
    ['fixed', MAX_FIXED_RATE, true],
    ['recurring_fixed', MAX_FIXED_RATE + 1, false],
    ['fixed', Number.NaN, false],
    ['fixed', Number.POSITIVE_INFINITY, false],
  ]
  for (const [type, rate, fits] of rows) test(`${type} ${rate} → ${fits}`, () => expect(rateFits(type, rate)).toBe(fits))
})

describe('isCurrency and minorDigitsOf', () => {
  const rows: [unknown, boolean][] = [
    ['USD', true],
    ['EUR', true],
    ['VND', true],
    ['usd', false],
    ['XXX', false],
    ['toString', false],
    ['hasOwnProperty', false],
    [42, false],
    [null, false],
  ]
  for (const [value, expected] of rows) test(`${String(value)} → ${expected}`, () => expect(isCurrency(value)).toBe(expected))
  test('each currency counts its own minor digits; an unknown one two', () => {
    expect([minorDigitsOf('USD'), minorDigitsOf('VND'), minorDigitsOf('toString'), minorDigitsOf('XXX')]).toEqual([2, 0, 2, 2])
  })
})
