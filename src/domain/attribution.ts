/**
 * Sale attribution (docs/api.md, Attribution rules 1–4; Track sale 400 table; docs/decisions.md).
 * Pure: the customer facts the store found, the program's terms and the sale in; a tagged
 * decision out, including the attribution record kept on the sale ("why was this attributed").
 */
import { commissionCents, type CommissionType, withinRecurring } from './commission.ts'
import type { CustomerStatus, FirstClick } from './lead.ts'
import { iso } from './time.ts'

const DAY_MS = 86_400_000

export interface SaleCustomer {
  id: number
  status: CustomerStatus
  partnerId: number | null
  /** The program of the customer's partner; null when the partner row is missing. */
  partnerProgramId: number | null
  clickId: string | null
  linkId: number | null
  clickedAt: number | null
  leadAt: number | null
  convertedAt: number | null
  /** A test-mode customer (made by test events); a test sale never converts a live one. */
  testMode: boolean
  /** The lead's email and IP (a keyed hash): read for the fraud rules (domain/fraud.ts). */
  email?: string | null
  leadIpHash?: string | null
}

/**
 * What the store resolved from customer_key and click_id, in that order; 'named' when the sale
 * named a partner and the customer has no partner yet (none, or none found: it is created for its
 * customer_key): through an active partner's coupon (`source` coupon, with its code), or by the
 * owner on a sale recorded by hand (`source` manual, docs/decisions.md, The first hour).
 */
export type SaleFacts =
  | { kind: 'customer'; customer: SaleCustomer; resolvedBy: 'customer_key' | 'click_id' }
  | { kind: 'click'; click: FirstClick }
  | { kind: 'named'; source: 'coupon' | 'manual'; customer: SaleCustomer | null; code: string | null; partnerId: number }
  | { kind: 'foreign' }
  | { kind: 'unknown' }

export interface ProgramTerms {
  id: number
  attributionWindowDays: number
  commissionType: CommissionType
  commissionRate: number
  /** Months after the customer's first sale that a recurring type pays; null pays forever. */
  recurringMonths: number | null
  /** Days a commission waits before it is due (docs/decisions.md, Payouts). */
  holdingPeriodDays?: number
  /** Whose terms these are: the program's, the partner's group's, or the partner's own (docs/decisions.md, Groups). */
  termsOf?: TermsSource
}

export type TermsSource = 'program' | 'group' | 'partner'

/** A partner's own terms, or its group's; each null field takes the next level's. */
export interface PartnerTerms {
  commissionType: CommissionType | null
  commissionRate: number | null
  recurringMonths: number | null
  /** A group's holding period (a partner has none of its own). */
  holdingPeriodDays?: number | null
}

const hasTerms = (t: PartnerTerms | null | undefined): t is PartnerTerms =>
  !!t && (t.commissionType !== null || t.commissionRate !== null || t.recurringMonths !== null || (t.holdingPeriodDays ?? null) !== null)

/**
 * The terms a partner's sale is paid by (docs/decisions.md, Groups): each term resolves partner →
 * group → program, the first level that sets it wins. `termsOf` names the most specific level that
 * set any term.
 */
export function termsFor<P extends Omit<ProgramTerms, 'termsOf'>>(
  program: P,
  partner: PartnerTerms | null,
  group: PartnerTerms | null = null,
): P & { termsOf: TermsSource } {
  const levels = [partner, group].filter(hasTerms)
  const pick = <K extends keyof PartnerTerms>(key: K) => {
    for (const level of levels) if ((level[key] ?? null) !== null) return level[key]
    return undefined
  }
  return {
    ...program,
    commissionType: pick('commissionType') ?? program.commissionType,
    commissionRate: pick('commissionRate') ?? program.commissionRate,
    recurringMonths: pick('recurringMonths') ?? program.recurringMonths,
    holdingPeriodDays: pick('holdingPeriodDays') ?? program.holdingPeriodDays,
    termsOf: hasTerms(partner) ? 'partner' : hasTerms(group) ? 'group' : 'program',
  }
}

export interface SaleTerms {
  amountCents: number
  currency: string
  /** Epoch ms of the payment (occurred_at, or the request time). */
  occurredAt: number
  /** The coupon the sale named, as stored, when it matched one but the customer's partner stands. */
  couponCode?: string | null
}

export type Attribution = Record<string, unknown>

export type SaleRejection = 'customer_not_found' | 'foreign_program' | 'window_expired' | 'no_relationship'

export type SaleDecision =
  | { ok: false; reason: SaleRejection }
  /** Stored without commission: the customer has no partner (answered `partnerId required`). */
  | { ok: true; attributed: false; attribution: Attribution }
  | {
      ok: true
      attributed: true
      partnerId: number
      linkId: number | null
      commissionCents: number | null
      firstSale: boolean
      attribution: Attribution
    }

/**
 * Decides a sale. Rule 4: until the customer's first attributed sale, the first click must be no
 * more than the window older than the signup (or than this payment without a signup); past it
 * nothing is recorded so that the next payment is checked again. After a conversion no payment
 * is re-checked. Non-recurring commission types pay on the customer's first sale only.
 */
export function decideSale(facts: SaleFacts, program: ProgramTerms, sale: SaleTerms): SaleDecision {
  if (facts.kind === 'unknown') return { ok: false, reason: 'customer_not_found' }
  if (facts.kind === 'foreign') return { ok: false, reason: 'foreign_program' }
  const customer: SaleCustomer =
    facts.kind === 'customer'
      ? facts.customer
      : facts.kind === 'named'
        ? {
            ...(facts.customer ?? { id: 0, status: 'converted', clickId: null, leadAt: null, convertedAt: null, testMode: false }),
            partnerId: facts.partnerId,
            partnerProgramId: program.id,
            linkId: null,
            clickedAt: null,
          }
        : {
            id: 0,
            status: 'converted',
            partnerId: facts.click.partnerId,
            partnerProgramId: program.id,
            clickId: facts.click.clickId,
            linkId: facts.click.linkId,
            clickedAt: facts.click.createdAt,
            leadAt: null,
            convertedAt: null,
            testMode: facts.click.testMode,
          }
  const named = facts.kind === 'named' ? facts.source : null
  const resolvedBy = facts.kind === 'customer' ? facts.resolvedBy : named === 'coupon' ? 'coupon_code' : (named ?? 'click_id')
  // Which source decided the partner: a coupon, the owner by hand, a lead (a signup tied to the click), or the click itself.
  const source = named ?? (customer.leadAt !== null ? 'lead' : 'click')
  const coupon =
    facts.kind === 'named' && facts.code !== null
      ? { coupon_code: facts.code }
      : sale.couponCode
        ? { coupon_code: sale.couponCode, coupon: 'recorded: the first attribution stands' }
        : {}
  if (customer.partnerId === null) {
    return {
      ok: true,
      attributed: false,
      attribution: { rule: 'unattributed', reason: 'customer has no partner', resolved_by: resolvedBy, ...coupon },
    }
  }
  if (customer.partnerProgramId !== program.id) return { ok: false, reason: 'no_relationship' }

  const windowChecked = customer.convertedAt === null && customer.clickedAt !== null
  const reference = customer.leadAt ?? sale.occurredAt
  if (windowChecked && reference - customer.clickedAt! > program.attributionWindowDays * DAY_MS) {
    return { ok: false, reason: 'window_expired' }
  }
  const firstSale = customer.convertedAt === null
  // A recurring type stops paying recurring_months after the customer's first sale.
  const expired = !firstSale && !withinRecurring(customer.convertedAt!, sale.occurredAt, program.recurringMonths ?? null)
  const cents = expired
    ? null
    : commissionCents({
        type: program.commissionType,
        rate: program.commissionRate,
        amountCents: sale.amountCents,
        currency: sale.currency,
        firstSale,
      })
  return {
    ok: true,
    attributed: true,
    partnerId: customer.partnerId,
    linkId: customer.linkId,
    commissionCents: cents,
    firstSale,
    attribution: {
      rule: named ?? 'first_click',
      source,
      ...coupon,
      resolved_by: resolvedBy,
      click_id: customer.clickId,
      partner_id: customer.partnerId,
      link_id: customer.linkId,
      clicked_at: iso(customer.clickedAt),
      window_days: program.attributionWindowDays,
      window: windowChecked
        ? { checked: true, measured_to: customer.leadAt === null ? 'payment' : 'signup', reference_at: iso(reference) }
        : {
            checked: false,
            why:
              customer.convertedAt !== null
                ? 'customer already converted'
                : named === 'coupon'
                  ? 'attributed by coupon'
                  : named === 'manual'
                    ? 'partner named by the owner'
                    : 'no click time',
          },
      commission: {
        type: program.commissionType,
        rate: program.commissionRate,
        terms: program.termsOf ?? 'program',
        recurring_months: program.recurringMonths ?? null,
        amount_cents: cents,
        why:
          cents !== null
            ? firstSale
              ? 'first sale'
              : 'recurring type'
            : expired
              ? 'past recurring_months after the first sale'
              : 'non-recurring type pays on the first sale only',
      },
    },
  }
}
