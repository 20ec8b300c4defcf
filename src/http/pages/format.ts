import { minorDigitsOf as digitsOf } from '../../domain/currency.ts'

// The digits of a currency's minor unit come from ISO 4217 (domain/currency.ts), not from Intl,
// whose tables differ between Bun and Deno: JPY and VND have none, KWD three.

/** An amount in minor units written with its currency code: 4900 USD → "USD 49.00". */
export function money(cents: number, currency: string): string {
  const digits = digitsOf(currency)
  const value = cents / 10 ** digits
  return `${currency} ${value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`
}

/** An amount in minor units as whole major units, for a chart's axis: 15000 USD → "150". */
export const majorUnits = (cents: number, currency: string) =>
  (cents / 10 ** digitsOf(currency)).toLocaleString('en', { maximumFractionDigits: 0 })

/** A count with thousands separators. */
export const count = (n: number) => n.toLocaleString('en')

/** An epoch-ms time as "2026-06-01 12:00 UTC". */
export const when = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A UTC day number (days since 1970) as "May 17". */
export const dayLabel = (day: number) => {
  const date = new Date(day * 86_400_000)
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`
}
