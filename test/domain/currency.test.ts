import { describe, expect, test } from 'bun:test'
import {
  currencyList,
  DEFAULT_CURRENCIES,
  isCurrency,
  minimumPayoutList,
  minimumPayoutOf,
  minorDigitsOf,
  toIsoMinor,
} from '../../src/domain/currency.ts'
import { stripeDigits } from '../../src/processors/stripe.ts'

// docs/decisions.md, Selling anywhere: ISO 4217's codes and exponents, from the currency-codes package.

describe('isCurrency: an active ISO 4217 code in capitals', () => {
  const rows: [unknown, boolean][] = [
    ['GBP', true],
    ['JPY', true],
    ['KWD', true],
    ['CAD', true],
    ['AUD', true],
    ['gbp', false],
    ['XAU', false], // gold: not money a shop is paid in
    ['XTS', false], // ISO's testing code
    ['ZZZ', false],
    ['GB', false],
  ]
  for (const [value, expected] of rows) test(`${String(value)} → ${expected}`, () => expect(isCurrency(value)).toBe(expected))
})

test('minorDigitsOf is ISO 4217 exponent: JPY 0, USD 2, KWD 3, VND 0, CLF 4', () => {
  expect(['JPY', 'USD', 'KWD', 'VND', 'CLF', 'ISK', 'MGA'].map(minorDigitsOf)).toEqual([0, 2, 3, 0, 4, 0, 2])
})

describe('currencyList', () => {
  test('upper-cases, keeps each code once, in order', () =>
    expect(currencyList(['usd', 'GBP', ' jpy ', 'USD'])).toEqual(['USD', 'GBP', 'JPY']))
  test('refuses an unknown code, an empty list, a non-string', () => {
    expect(currencyList(['USD', 'ABC'])).toBeNull()
    expect(currencyList([])).toBeNull()
    expect(currencyList([42])).toBeNull()
  })
  test("the default is docs/api.md's three", () => expect([...DEFAULT_CURRENCIES]).toEqual(['USD', 'EUR', 'VND']))
})

test('minimum_payouts: codes upper-cased, amounts 0..1e12; one override per currency, else minimum_payout', () => {
  expect(minimumPayoutList({ jpy: 5000, GBP: 0 })).toEqual({ JPY: 5000, GBP: 0 })
  expect(minimumPayoutList({ JPY: -1 })).toBeNull()
  expect(minimumPayoutList({ NOPE: 1 })).toBeNull()
  // No finer than the currency's minor unit.
  expect(minimumPayoutList({ JPY: 5000.5 })).toBeNull()
  expect(minimumPayoutList({ GBP: 20.555 })).toBeNull()
  expect(minimumPayoutList({ GBP: 20.55, KWD: 1.234, USD: 0.1 })).toEqual({ GBP: 20.55, KWD: 1.234, USD: 0.1 })
  const program = { minimumPayout: 50, minimumPayouts: { JPY: 5000 } }
  expect([minimumPayoutOf(program, 'JPY'), minimumPayoutOf(program, 'USD')]).toEqual([5000, 50])
})

describe("Stripe's minor units, converted at its edge", () => {
  const rows: [string, number, number][] = [
    // currency, Stripe's amount, ISO minor units
    ['USD', 4900, 4900],
    ['JPY', 5000, 5000], // zero-decimal on both sides
    ['KWD', 12_345, 12_345], // three-decimal on both sides
    ['MGA', 5000, 500_000], // Stripe: zero-decimal; ISO: 2
    ['ISK', 100_000, 1000], // Stripe: two-decimal for compatibility; ISO: 0
  ]
  for (const [currency, stripeAmount, iso] of rows)
    test(`${stripeAmount} ${currency} → ${iso}`, () => expect(toIsoMinor(stripeAmount, currency, stripeDigits(currency))).toBe(iso))
})
