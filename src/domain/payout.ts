/**
 * Payout rules (docs/decisions.md, Payouts). Pure: the ledger facts and the time come in, statuses
 * and the payouts to create come out. Money is integer minor units ("cents"; VND has none).
 */
import { minorDigitsOf } from './commission.ts'

/**
 * The kinds of ledger entry (docs/decisions.md, Payouts; Groups: bonuses): a sale's commission,
 * its reversal (negative), and a bonus, a one-off credit with no sale that is paid like a
 * commission (pending for the holding period, then due).
 */
export const LEDGER_KINDS = ['commission', 'reversal', 'bonus'] as const
export type LedgerKind = (typeof LEDGER_KINDS)[number]

export type CommissionStatus = 'pending' | 'due' | 'in_payout' | 'paid' | 'reversed' | 'held'

/** The status of the pending or paid payout an entry belongs to, or null when it is in none. */
export type PayoutState = 'pending' | 'paid' | null

/** One ledger entry as the status rule needs it. */
export interface LedgerFacts {
  kind: LedgerKind
  createdAt: number
  /**
   * When the entry is due, fixed when it was booked (docs/decisions.md, Groups: "terms are fixed
   * when an entry is booked"); absent, it is counted from createdAt and `holdingPeriodDays`.
   */
  dueAt?: number | null
  payout: PayoutState
  /**
   * The other entry of the same sale (a commission's reversal, a reversal's commission), or
   * null when there is none (a commission not refunded).
   */
  pair: { payout: PayoutState } | null
  /** Held for review (docs/decisions.md, Fraud signals and review): never in a payout until approved. */
  held: boolean
}

const DAY_MS = 86_400_000

/**
 * When an entry booked at `createdAt` under a holding period becomes due: a commission or a
 * bonus after the holding period, a reversal at once (a reversal that still counts is one whose
 * commission went into a payout, so it nets at once). Written on the entry when it is booked.
 */
export function dueAtOf(kind: LedgerKind, createdAt: number, holdingPeriodDays: number): number {
  return kind === 'reversal' ? createdAt : createdAt + holdingPeriodDays * DAY_MS
}

/** When the entry becomes due: the time booked with it, else dueAtOf with `holdingPeriodDays`. */
export function dueAt(entry: Pick<LedgerFacts, 'kind' | 'createdAt' | 'dueAt'>, holdingPeriodDays: number): number {
  return entry.dueAt ?? dueAtOf(entry.kind, entry.createdAt, holdingPeriodDays)
}

/**
 * The status of a ledger entry at `now`:
 * - `paid` / `in_payout`: it belongs to a paid / pending payout;
 * - `reversed`: a commission and its reversal, neither in a pending or paid payout, cancel out
 *   and are never paid (both entries show `reversed`), a held commission's too;
 * - `held`: a commission held for review (never in a payout);
 * - otherwise `pending` before its due time and `due` from then on.
 */
export function entryStatus(entry: LedgerFacts, holdingPeriodDays: number, now: number): CommissionStatus {
  return statusOf(entry, now >= dueAt(entry, holdingPeriodDays))
}

/** entryStatus with the due test already made (`due`: the entry's due time has come). */
export function statusOf(entry: Pick<LedgerFacts, 'payout' | 'pair' | 'held'>, due: boolean): CommissionStatus {
  if (entry.payout === 'paid') return 'paid'
  if (entry.payout === 'pending') return 'in_payout'
  if (entry.pair && entry.pair.payout === null) return 'reversed'
  if (entry.held) return 'held'
  return due ? 'due' : 'pending'
}

/** Ledger entries of one partner and currency that share kind, payout facts and dueness, added up. */
export interface LedgerGroup extends Pick<LedgerFacts, 'kind' | 'payout' | 'pair' | 'held'> {
  partnerId: number
  currency: string
  due: boolean
  amountCents: number
}

/**
 * A partner's balance in one currency, in minor units, such that
 * paid + in_payout + due + pending + held + reversed = booked:
 * booked the sum of the commissions; reversed what reversals took back (before or after a
 * payout); paid, in_payout, due, pending and held the signed sums of the entries with that status
 * (a reversal of a paid commission counts negative in one of them: the netting).
 */
export interface Balance {
  partnerId: number
  currency: string
  booked: number
  pending: number
  due: number
  inPayout: number
  paid: number
  held: number
  reversed: number
}

/** The balances of the groups, one per partner and currency, ordered by partner then currency. */
export function balances(groups: LedgerGroup[]): Balance[] {
  const out = new Map<string, Balance>()
  for (const group of groups) {
    const key = `${group.partnerId}\u0000${group.currency}`
    let b = out.get(key)
    if (!b)
      out.set(
        key,
        (b = {
          partnerId: group.partnerId,
          currency: group.currency,
          booked: 0,
          pending: 0,
          due: 0,
          inPayout: 0,
          paid: 0,
          held: 0,
          reversed: 0,
        }),
      )
    if (group.kind !== 'reversal') b.booked += group.amountCents
    else b.reversed -= group.amountCents
    const status = statusOf(group, group.due)
    // A pair reversed before any payout nets to zero: it is counted in booked and reversed only.
    if (status === 'pending') b.pending += group.amountCents
    else if (status === 'due') b.due += group.amountCents
    else if (status === 'in_payout') b.inPayout += group.amountCents
    else if (status === 'paid') b.paid += group.amountCents
    else if (status === 'held') b.held += group.amountCents
  }
  return [...out.values()].sort((a, b) => a.partnerId - b.partnerId || a.currency.localeCompare(b.currency))
}

/** A ledger entry a payout run looks at. */
export interface RunCandidate extends LedgerFacts, DueEntry {}

/**
 * The entries a run pays: those due now, in no payout, whose due time is at or before `until`
 * (a time in the future pays nothing early: what is not due yet stays pending).
 */
export function dueEntries<T extends RunCandidate>(entries: T[], holdingPeriodDays: number, now: number, until: number): T[] {
  const cutoff = Math.min(now, until)
  return entries.filter((e) => entryStatus(e, holdingPeriodDays, now) === 'due' && dueAt(e, holdingPeriodDays) <= cutoff)
}

/** The smallest payout in the currency's minor units: minimum_payout major units, rounded up. */
export function minimumCents(minimumPayout: number, currency: string): number {
  const digits = minorDigitsOf(currency)
  // toFixed first: 19.99 × 100 is 1998.9999… as a double.
  return Math.ceil(Number((minimumPayout * 10 ** digits).toFixed(6)))
}

/** A due ledger entry as a payout run sees it. */
export interface DueEntry {
  id: number
  partnerId: number
  currency: string
  amountCents: number
}

export interface PlannedPayout {
  partnerId: number
  currency: string
  amountCents: number
  entryIds: number[]
}

/**
 * The payouts a run creates from the due entries: one per partner and currency whose net
 * (commissions minus reversals netted against them) is positive and at least the minimum.
 * A negative or too small net makes none: its entries stay due for a later run. The minimum is
 * in major units, one number or per currency (minimum_payouts, docs/decisions.md).
 */
export function planPayouts(entries: DueEntry[], minimumPayout: number | ((currency: string) => number)): PlannedPayout[] {
  const minimumOf = typeof minimumPayout === 'number' ? () => minimumPayout : minimumPayout
  const groups = new Map<string, PlannedPayout>()
  for (const entry of entries) {
    const key = `${entry.partnerId}\u0000${entry.currency}`
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { partnerId: entry.partnerId, currency: entry.currency, amountCents: 0, entryIds: [] }))
    group.amountCents += entry.amountCents
    group.entryIds.push(entry.id)
  }
  return [...groups.values()]
    .filter((p) => p.amountCents > 0 && p.amountCents >= minimumCents(minimumOf(p.currency), p.currency))
    .sort((a, b) => a.partnerId - b.partnerId || a.currency.localeCompare(b.currency))
}

/** An amount of minor units in major units with a decimal point: 12345 USD → "123.45", 5000 VND → "5000". */
export function formatAmount(cents: number, currency: string): string {
  const digits = minorDigitsOf(currency)
  // Through BigInt: String() of a number past 2^53 would print an exponent ("1.8e+23"), never a
  // column a payment tool can read. Amounts stay safe integers (MAX_CENTS); this is the last guard.
  const whole = BigInt(Math.trunc(cents))
  if (digits === 0) return whole.toString()
  const sign = whole < 0n ? '-' : ''
  const abs = (whole < 0n ? -whole : whole).toString().padStart(digits + 1, '0')
  return `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`
}
