// Moving in from another tool (docs/imports.md): the sources, the import's states, the kinds of
// rows it reads, and the rules that turn a source's facts into svc's. Pure: time comes in.

/** The tools an import reads (docs/imports.md). */
export const IMPORT_SOURCES = ['rewardful', 'tolt', 'firstpromoter', 'partnerstack'] as const
export type ImportSource = (typeof IMPORT_SOURCES)[number]

/** An import's status: queued until the job takes it, running, then done or failed. */
export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

/** The error of an import ended by its owner or the operator. */
export const CANCELED = 'canceled'

/** What an import writes, in the order it writes them (a commission needs its partner and customer first). */
export const IMPORT_KINDS = ['partner', 'link', 'coupon', 'customer', 'commission', 'payout'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

/** The `counts` of an import's answer: one per kind, in the plural the API says. */
export type ImportCounts = Record<'partners' | 'links' | 'coupons' | 'customers' | 'sales' | 'commissions' | 'payouts', number>

export const emptyCounts = (): ImportCounts => ({ partners: 0, links: 0, coupons: 0, customers: 0, sales: 0, commissions: 0, payouts: 0 })

/** The query parameter each source's links carry (Rewardful `via`, Tolt `ref`, FirstPromoter `fpr`, PartnerStack `ps_partner_key`). */
export const SOURCE_LINK_PARAMS: Record<ImportSource, string> = {
  rewardful: 'via',
  tolt: 'ref',
  firstpromoter: 'fpr',
  partnerstack: 'ps_partner_key',
}

/** The link parameter every program accepts, whatever its `link_params` say. */
export const DEFAULT_LINK_PARAM = 'aff'

/** A program's `link_params` with `aff` first and a source's parameter added once (an import adds its source's). */
export function withLinkParam(params: readonly string[], added: string): string[] {
  const out = [DEFAULT_LINK_PARAM, ...params.filter((p) => p !== DEFAULT_LINK_PARAM)]
  return out.includes(added) ? out : [...out, added]
}

/** Link parameters whose value travels encoded: PartnerStack's partner key is base64 in its links. */
export const ENCODED_LINK_PARAMS: Record<string, 'base64'> = { ps_partner_key: 'base64' }

/** The state of an imported commission in svc's words (docs/imports.md). */
export type ImportedState = 'pending' | 'due' | 'paid' | 'reversed'

export type PartnerStatusWord = 'pending' | 'active' | 'rejected' | 'suspended'

/** A customer's key: `stripe:<cus_…>` when the source knows the Stripe customer, so that Stripe renewals keep earning; else `<source>:<id>`. */
export function customerKeyOf(source: ImportSource, sourceId: string, stripeCustomerId: string | null | undefined): string {
  return stripeCustomerId?.startsWith('cus_') ? `stripe:${stripeCustomerId}` : `${source}:${sourceId}`
}

const DAY_MS = 86_400_000

/**
 * When an imported ledger entry is booked (its created_at, which its chain link and its due time
 * follow). Each keeps its source state (docs/decisions.md, Turn 4): a `due` entry is booked no
 * later than one holding period ago, so that it is due at once; a `pending` one at the import's
 * time, so that it waits the program's holding period from then; paid and reversed ones at the
 * source's date. Never in the future, and never before the partner's last entry already chained
 * (`floor`), so that each chain stays in date order and earlier statements stay valid.
 */
export function bookedAt(state: ImportedState, sourceAt: number, now: number, holdingPeriodDays: number, floor: number | null): number {
  let at = state === 'pending' ? now : Math.min(sourceAt, now)
  if (state === 'due') at = Math.min(at, now - holdingPeriodDays * DAY_MS)
  return floor !== null && at < floor ? Math.min(floor, now) : at
}

/** A short link an import can keep: svc's own short_link rule (1 to 100 letters, digits, - or _). */
export const IMPORTABLE_TOKEN = /^[A-Za-z0-9_-]{1,100}$/

/** Why an imported row was not written (the `skipped[].reason` of an import), one sentence each. */
export const SKIP_REASONS = {
  tokenTaken: 'the link token is taken by another link',
  tokenInvalid: 'the link token is not 1 to 100 letters, digits, - or _',
  codeTaken: "the coupon code is taken by another partner's coupon in this program",
  noPartner: 'its partner was not imported',
  noEmailOrName: 'the partner has neither a name nor an email',
  currency: (currency: string) => `the currency ${currency} is not one the program accepts`,
  amount: 'the amount is not a whole number of cents of at least 0',
  notCash: 'the commission is not money (its unit is not cash)',
  nothingPaid: 'no imported paid commission belongs to it',
  keyTaken: 'the customer key belongs to another partner in this program',
} as const
