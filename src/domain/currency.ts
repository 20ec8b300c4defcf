/**
 * Currencies (docs/decisions.md, Selling anywhere): ISO 4217 codes and the digits of each one's
 * minor unit, read from one maintained package (currency-codes, ISO's own list one) rather than
 * from Intl, whose tables differ between Bun and Deno, or from a table of our own.
 */
import { data as isoList } from 'currency-codes'

/** The currencies a program takes unless its owner lists others: docs/api.md's three. */
export const DEFAULT_CURRENCIES = ['USD', 'EUR', 'VND'] as const

/** How many currencies one program may list; far more than any shop sells in. */
export const MAX_PROGRAM_CURRENCIES = 50

/**
 * ISO 4217's codes that name no money a shop is paid in: precious metals, bond units, the
 * testing code and "no currency" (ISO lists them with "ZZ" entities).
 */
const notMoney = (countries: readonly string[]) => countries.some((c) => /^zz\d/i.test(c))

/** The money codes and their exponents, looked up by code (the package's own lookup is a linear search). */
const exponents: ReadonlyMap<string, number> = new Map(isoList.filter((c) => !notMoney(c.countries)).map((c) => [c.code, c.digits]))

/** Whether `value` is an active ISO 4217 currency code, in capitals (GBP, JPY, KWD; not "usd", not XAU). */
export function isCurrency(value: unknown): value is string {
  return typeof value === 'string' && exponents.has(value)
}

/**
 * The digits after the decimal point of a currency's major unit, ISO 4217's exponent: USD 2,
 * JPY 0, VND 0, KWD 3. 2 for anything else (never stored: sales are checked first).
 */
export function minorDigitsOf(currency: string): number {
  return exponents.get(currency) ?? 2
}

/**
 * A program's currency list as given (POST/PATCH programs, Settings): upper-cased, each once,
 * in order; null when one is not an active ISO 4217 code, the list is empty or too long.
 */
export function currencyList(values: readonly unknown[]): string[] | null {
  const list: string[] = []
  for (const value of values) {
    const upper = typeof value === 'string' ? value.trim().toUpperCase() : value
    if (!isCurrency(upper)) return null
    if (!list.includes(upper)) list.push(upper)
  }
  return list.length === 0 || list.length > MAX_PROGRAM_CURRENCIES ? null : list
}

/**
 * A program's per-currency minimum payouts (`{ "JPY": 5000 }`, major units): keys upper-cased
 * active codes, values numbers from 0 to 10^12 with no more decimals than the currency's minor
 * unit has; null when one is not.
 */
export function minimumPayoutList(value: Record<string, unknown>): Record<string, number> | null {
  const out: Record<string, number> = {}
  const entries = Object.entries(value)
  if (entries.length > MAX_PROGRAM_CURRENCIES) return null
  for (const [key, amount] of entries) {
    const currency = key.trim().toUpperCase()
    if (!isCurrency(currency) || typeof amount !== 'number' || !(amount >= 0 && amount <= 1e12)) return null
    // No finer than the currency's minor unit: JPY 5000.5 or GBP 20.555 is no amount that can be paid.
    if (!Number.isInteger(Math.round(amount * 10 ** minorDigitsOf(currency) * 1e6) / 1e6)) return null
    out[currency] = amount
  }
  return out
}

/** The minimum payout of `currency` in major units: its own entry in minimum_payouts, else minimum_payout. */
export function minimumPayoutOf(program: { minimumPayout: number; minimumPayouts: Record<string, number> }, currency: string): number {
  return Object.hasOwn(program.minimumPayouts, currency) ? program.minimumPayouts[currency]! : program.minimumPayout
}

/**
 * An amount a processor counts in its own minor unit, in ISO 4217's: `fromDigits` is the
 * processor's exponent for the currency. Stripe counts MGA with none (ISO: 2) and ISK with two
 * (ISO: 0). Rounded half away from zero when digits are dropped.
 */
export function toIsoMinor(amount: number, currency: string, fromDigits: number): number {
  const shift = minorDigitsOf(currency) - fromDigits
  if (shift === 0) return amount
  return shift > 0 ? amount * 10 ** shift : Math.round(amount / 10 ** -shift)
}
