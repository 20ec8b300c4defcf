/**
 * How a partner is paid (docs/decisions.md, Paying partners): the methods, their labels, and
 * what each method's details must look like. Pure: no I/O.
 */

/** paypal (the PayPal email), wise (the email Wise pays), bank (free text, paid by hand), stripe (a connected account `acct_…`). */
export const PAYOUT_METHODS = ['paypal', 'wise', 'bank', 'stripe'] as const
export type PayoutMethod = (typeof PAYOUT_METHODS)[number]

/** The methods a partner may type details for in the portal: stripe is set only by "Connect with Stripe", checked with Stripe. */
export const PORTAL_FORM_METHODS = PAYOUT_METHODS.filter((m) => m !== 'stripe')

/** The words pages show for each method. */
export const PAYOUT_METHOD_LABELS: Record<PayoutMethod, string> = {
  paypal: 'PayPal',
  wise: 'Wise',
  bank: 'Bank transfer',
  stripe: 'Stripe',
}

export const isPayoutMethod = (value: unknown): value is PayoutMethod => (PAYOUT_METHODS as readonly unknown[]).includes(value)

// A plain address check: one @, a dot in the domain, no spaces (PayPal and Wise check the rest).
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/
// Stripe account ids: `acct_` and letters and digits.
const STRIPE_ACCOUNT = /^acct_[A-Za-z0-9]{1,100}$/

/**
 * Why `details` cannot be paid by `method`, or null when they can: paypal and wise take an email,
 * stripe a connected account id, bank any text (at most 1,000 characters, as every method).
 */
export function payoutDetailsProblem(method: PayoutMethod, details: string): string | null {
  if (details.length === 0) return 'payout_details are required with a payout_method'
  if (details.length > 1000) return 'payout_details must be a string of at most 1000 characters'
  if ((method === 'paypal' || method === 'wise') && !EMAIL.test(details))
    return `payout_details must be the ${PAYOUT_METHOD_LABELS[method]} email address`
  if (method === 'stripe' && !STRIPE_ACCOUNT.test(details)) return 'payout_details must be a Stripe account id (acct_…)'
  return null
}

/** A payout's status (docs/payouts.md): `processing` while a rail sends it, `failed` when the rail refused or returned it. */
export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'failed', 'canceled'] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]

/** The rails that send money (src/payouts): each pays the partners of the method of the same name. */
export const PAYOUT_RAILS = ['paypal', 'stripe'] as const
export type PayoutRail = (typeof PAYOUT_RAILS)[number]
/** The variables that turn each rail on (docs/payouts.md, Configuration). */
export const RAIL_VARIABLES: Record<PayoutRail, string> = {
  paypal: 'PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET',
  stripe: 'STRIPE_SECRET_KEY',
}
export const isPayoutRail = (value: unknown): value is PayoutRail => (PAYOUT_RAILS as readonly unknown[]).includes(value)

/** One payout of a send as the rail is asked to pay it (docs/payouts.md). */
export interface SendItem {
  payoutId: number
  /** The PayPal email or the Stripe account the partner gave when the send was recorded. */
  receiver: string
  amountCents: number
}
