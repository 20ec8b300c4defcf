/**
 * Commission arithmetic (docs/decisions.md, "Success bodies"). Pure and exact: rates are decimal
 * numbers such as 12.5 or 4.35, so the product is computed on integers (BigInt) and rounded
 * half up once, never through binary floating point (1000 × 4.35 is 4349.999… as a double).
 */

/** The commission types of docs/api.md (Records); the schema, the routes and the CLI take them from here. */
export const COMMISSION_TYPES = ['percent', 'fixed', 'recurring_percent', 'recurring_fixed'] as const
export type CommissionType = (typeof COMMISSION_TYPES)[number]

export { isCurrency, minorDigitsOf } from './currency.ts'
import { minorDigitsOf } from './currency.ts'

/**
 * The largest amount the service stores, sums or prints (docs/decisions.md, Hostile input, turn 3):
 * every amount, commission, balance and payout total is an integer of at most 2^53 − 1 cents, so
 * that JavaScript, JSON and SQLite all hold it exactly.
 */
export const MAX_CENTS = Number.MAX_SAFE_INTEGER

/** The largest fixed rate, in major units: its commission stays far below MAX_CENTS in every currency. */
export const MAX_FIXED_RATE = 1e9

/** Whether `rate` is a commission rate `type` can take: a percentage is at most 100. */
export function rateFits(type: CommissionType, rate: number): boolean {
  return Number.isFinite(rate) && rate > 0 && rate <= (type === 'percent' || type === 'recurring_percent' ? 100 : MAX_FIXED_RATE)
}

export interface CommissionInput {
  type: CommissionType
  /** commission_rate: a percentage for the percent types, major units for the fixed types. */
  rate: number
  amountCents: number
  currency: string
  /** True when the customer has no earlier attributed sale (non-recurring types pay only then). */
  firstSale: boolean
}

// Rates carry at most this many decimals; more are rounded away before the exact product.
const RATE_SCALE = 1_000_000n

/** round(numerator / denominator), half up, for non-negative BigInts. */
function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (2n * denominator))
}

/**
 * The commission in the sale currency's smallest unit, or null when the commission type pays
 * nothing for this sale (a non-recurring type on a customer's later sale).
 * percent, recurring_percent: round(amount_cents × rate / 100);
 * fixed, recurring_fixed: rate major units (USD, EUR: 5 → 500; VND: 5 → 5).
 */
export function commissionCents({ type, rate, amountCents, currency, firstSale }: CommissionInput): number | null {
  const recurring = type === 'recurring_percent' || type === 'recurring_fixed'
  if (!recurring && !firstSale) return null
  const scaledRate = BigInt(Math.round(rate * Number(RATE_SCALE)))
  if (type === 'percent' || type === 'recurring_percent') {
    return roundHalfUp(BigInt(amountCents) * scaledRate, 100n * RATE_SCALE)
  }
  const digits = minorDigitsOf(currency)
  return roundHalfUp(scaledRate * 10n ** BigInt(digits), RATE_SCALE)
}

const DAY_MS = 86_400_000

/**
 * The last UTC day (days since 1970) on which a recurring commission still pays: the same day of
 * the month `months` after the customer's first sale, or that month's last day when it has no
 * such day (a first sale on Jan 31 with one month pays until Feb 28, or Feb 29 in a leap year).
 */
export function recurringLastDay(firstSaleAt: number, months: number): number {
  const first = new Date(firstSaleAt)
  const year = first.getUTCFullYear()
  const month = first.getUTCMonth() + months
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return Date.UTC(year, month, Math.min(first.getUTCDate(), lastOfMonth)) / DAY_MS
}

/** Whether a recurring commission pays for a sale at `saleAt`: always when `months` is null (forever). */
export function withinRecurring(firstSaleAt: number, saleAt: number, months: number | null): boolean {
  return months === null || Math.floor(saleAt / DAY_MS) <= recurringLastDay(firstSaleAt, months)
}
