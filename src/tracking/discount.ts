import type { Program } from '../db/schema.ts'
import type { TrackingDeps } from './deps.ts'

const DAY_MS = 86_400_000

/** What GET /api/v1/programs/me/discount answers (docs/decisions.md, Groups: two-sided). */
export interface DiscountAnswer {
  partner: { name: string | null } | null
  group_id: number | null
  /** The processor's coupon id (Stripe's `coupon`) and its words; null when the partner's group gives none. */
  discount: { coupon_id: string; description: string } | null
}

const NONE: DiscountAnswer = { partner: null, group_id: null, discount: null }

/**
 * The discount a visitor or customer gets through their partner: the customer (by customer_key,
 * else by click_id) and its partner, or, for a click with no customer yet, the partner of the
 * visitor's first click while it is within the attribution window. Only an active partner
 * counts, as only its links attribute. A visitor of no partner, or one whose partner's group has
 * no discount, gets `discount: null`. Reads only.
 */
export function discountFor(
  deps: TrackingDeps,
  program: Program,
  lookup: { clickId: string | null; customerKey: string | null },
): DiscountAnswer {
  const { tracking, partners, groups } = deps.database.stores
  const customer =
    (lookup.customerKey === null ? null : tracking.customerByKey(program.id, lookup.customerKey)) ??
    (lookup.clickId === null ? null : tracking.customerByClick(program.id, lookup.clickId))
  let partnerId = customer?.partnerId ?? null
  if (!customer && lookup.clickId !== null) {
    const click = tracking.firstClick(program.id, lookup.clickId)
    // docs/api.md, Attribution rule 4: a click past the window would attribute no sale.
    if (click && deps.clock.now() - click.createdAt <= program.attributionWindowDays * DAY_MS) partnerId = click.partnerId
  }
  const partner = partnerId === null ? null : partners.find(program.id, partnerId)
  if (partner?.status !== 'active') return NONE
  const group = partner.groupId === null ? null : groups.find(partner.groupId, program.id)
  return {
    partner: { name: partner.name },
    group_id: group?.id ?? null,
    discount: group?.discountCouponId != null ? { coupon_id: group.discountCouponId, description: group.discountDescription ?? '' } : null,
  }
}
