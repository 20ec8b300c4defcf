// FirstPromoter, API v2 (docs/imports.md; docs.firstpromoter.com/api-reference-v2): a Bearer
// key and the `Account-ID` header; `page`/`per_page` pages, read until one has fewer rows than asked.
import { customerKeyOf, SKIP_REASONS, type ImportedState, type PartnerStatusWord } from '../domain/imports.ts'
import { centsOf, idOf, type Json, list, nameOf, obj, type Source, type SourcePage, type SourceStep, textOf, timeOf } from './source.ts'

const PER_PAGE = 100
const promoterStatus: Record<string, PartnerStatusWord> = {
  pending: 'pending',
  accepted: 'active',
  rejected: 'rejected',
  blocked: 'suspended',
  inactive: 'suspended',
  not_set: 'pending',
}
const CONVERTED = ['subscribed', 'active', 'cancelled', 'refunded']

function pages(name: string, path: string, map: (item: Json, page: SourcePage) => void): SourceStep {
  return {
    name,
    async read(http, page) {
      const n = Number(page ?? '1')
      const body = await http.get(path, [
        ['page', String(n)],
        ['per_page', String(PER_PAGE)],
      ])
      // Lists answer an array, promoters `{ data, meta }` (docs/imports.md).
      const items = Array.isArray(body) ? list(body) : list(obj(body).data)
      const out: SourcePage = { rows: [], skipped: [], next: null }
      for (const item of items) map(item, out)
      out.next = items.length < PER_PAGE ? null : String(n + 1)
      return out
    },
  }
}

/** The promoter's state: accepted in any campaign makes an active partner, else its first campaign's state. */
function statusOf(campaigns: Json[]): PartnerStatusWord {
  if (campaigns.some((c) => c.state === 'accepted')) return 'active'
  return promoterStatus[String(campaigns[0]?.state ?? 'not_set')] ?? 'pending'
}

export const firstpromoter: Source = {
  name: 'firstpromoter',
  base: 'https://api.firstpromoter.com/api/v2/company',
  missing: (o) => (o.accountId ? null : 'account_id is required for firstpromoter (its Account-ID header)'),
  headers: (o) => ({ authorization: `Bearer ${o.apiKey}`, 'account-id': o.accountId ?? '' }),
  errorText: (body) => textOf(obj(body).message),
  steps: () => [
    pages('promoters', '/promoters', (p, out) => {
      const id = idOf(p.id)
      if (!id) return
      const profile = obj(p.profile)
      const campaigns = list(p.promoter_campaigns)
      const createdAt = timeOf(p.created_at, 0)
      const name = textOf(p.name) ?? nameOf(profile.first_name, profile.last_name)
      out.rows.push({
        kind: 'partner',
        sourceId: id,
        at: createdAt,
        data: { name, email: textOf(p.email), status: statusOf(campaigns), paypalEmail: textOf(profile.paypal_email), createdAt },
      })
      for (const c of campaigns) {
        const pc = idOf(c.id)
        const token = textOf(c.ref_token)
        const code = textOf(c.coupon)
        if (pc && token) out.rows.push({ kind: 'link', sourceId: pc, at: createdAt, data: { partner: id, token } })
        if (pc && code) out.rows.push({ kind: 'coupon', sourceId: pc, at: createdAt, data: { partner: id, code, promotionCode: null } })
      }
    }),
    pages('referrals', '/referrals', (r, out) => {
      const id = idOf(r.id)
      if (!id) return
      const partner = idOf(obj(obj(r.promoter_campaign).promoter).id)
      if (!partner) return void out.skipped.push({ kind: 'customer', sourceId: id, reason: SKIP_REASONS.noPartner })
      out.rows.push({
        kind: 'customer',
        sourceId: id,
        at: timeOf(r.customer_since, timeOf(r.created_at, 0)),
        data: {
          partner,
          key: customerKeyOf('firstpromoter', id, textOf(r.uid)),
          email: textOf(r.email),
          converted: CONVERTED.includes(String(r.state)),
        },
      })
    }),
    pages('commissions', '/commissions', (c, out) => {
      const id = idOf(c.id)
      if (!id) return
      if (c.unit !== undefined && c.unit !== 'cash')
        return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.notCash })
      const partner = idOf(obj(obj(c.promoter_campaign).promoter).id)
      const amount = centsOf(c.amount)
      const state: ImportedState | undefined =
        c.status === 'denied'
          ? 'reversed'
          : c.status === 'approved'
            ? c.is_paid === true
              ? 'paid'
              : 'due'
            : c.status === 'pending'
              ? 'pending'
              : undefined
      if (!partner) return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.noPartner })
      if (amount === null || amount < 0 || !state)
        return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.amount })
      const referral = obj(c.referral)
      const at = timeOf(c.created_at, 0)
      const referralId = idOf(referral.id)
      out.rows.push({
        kind: 'commission',
        sourceId: id,
        at,
        data: {
          partner,
          customerKey: referralId ? customerKeyOf('firstpromoter', referralId, textOf(referral.uid)) : null,
          state,
          amountCents: amount,
          currency: textOf(c.original_sale_currency)?.toUpperCase() ?? null,
          saleAmountCents: centsOf(c.sale_amount) ?? 0,
          occurredAt: at,
          paidAt: null,
        },
      })
    }),
  ],
}
