import { minimumPayoutOf } from '../../domain/currency.ts'
import type { Partner } from '../../db/partner-store.ts'
import type { PartnerGroup, Program } from '../../db/schema.ts'
import { termsFor } from '../../domain/attribution.ts'
import { html, type Safe } from './html.ts'

type OwnTerms = Pick<Partner, 'commissionType' | 'commissionRate' | 'recurringMonths'>
type GroupTerms = Pick<PartnerGroup, 'commissionType' | 'commissionRate' | 'recurringMonths' | 'holdingPeriodDays'>

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`

/**
 * What a partner is paid, in words: "20% of every sale, for 12 months after the customer's first
 * sale". Each term the partner's own, else its group's, else the program's (domain termsFor).
 */
export function termsInWords(program: Program, partner?: OwnTerms | null, group?: GroupTerms | null): string {
  const terms = termsFor(program, partner ?? null, group ?? null)
  const percent = terms.commissionType === 'percent' || terms.commissionType === 'recurring_percent'
  const recurring = terms.commissionType === 'recurring_percent' || terms.commissionType === 'recurring_fixed'
  const rate = percent ? `${terms.commissionRate}% of` : `${terms.commissionRate} (in the sale's currency) for`
  if (!recurring) return `${rate} each referred customer's first sale`
  const until =
    terms.recurringMonths === null
      ? ', renewals included'
      : `, renewals included, for ${plural(terms.recurringMonths, 'month')} after the customer's first sale`
  return `${rate} every sale of a referred customer${until}`
}

/** A program's terms for a partner as a list: the rate, the window, the holding period, the minimum and when payouts happen. */
export function termsList(
  program: Program,
  partner?: OwnTerms | null,
  group?: (GroupTerms & Pick<PartnerGroup, 'discountDescription'>) | null,
): Safe {
  const { holdingPeriodDays } = termsFor(program, partner ?? null, group ?? null)
  const minimums = program.currencies.map((c) => [c, minimumPayoutOf(program, c)] as const).filter(([, m]) => m > 0)
  const minimum = minimums.length > 0 ? `at least ${minimums.map(([c, m]) => `${c} ${m}`).join(', ')}` : 'no minimum'
  return html`<ul class="terms">
<li><b>Commission:</b> ${termsInWords(program, partner, group)}.</li>
${group?.discountDescription ? html`<li><b>Your audience gets:</b> ${group.discountDescription}.</li>` : ''}
<li><b>Attribution window:</b> a visitor who clicks your link counts as yours for ${plural(program.attributionWindowDays, 'day')}; the first partner's link a visitor clicked wins.</li>
<li><b>Holding period:</b> a commission is payable ${holdingPeriodDays === 0 ? 'at once' : `${plural(holdingPeriodDays, 'day')} after the sale`}; a refund before payment cancels it.</li>
<li><b>Minimum payout:</b> ${minimum}.</li>
<li><b>Payouts:</b> the program's owner pays what is due in each payout run, by the method in your payout details.</li></ul>`
}
