// Rewardful, REST API v1 (docs/imports.md; developers.rewardful.com/rest-api/): HTTP Basic
// with the API Secret as user name, `page`/`limit` pages whose `pagination.next_page` is null on the last.
import { customerKeyOf, SKIP_REASONS, type ImportedState, type PartnerStatusWord } from '../domain/imports.ts'
import {
  centsOf,
  idOf,
  type Json,
  list,
  nameOf,
  obj,
  type Source,
  type SourceHttp,
  type SourcePage,
  type SourceStep,
  textOf,
  timeOf,
} from './source.ts'

const LIMIT = '100'

const partnerStatus = (state: unknown): PartnerStatusWord => (state === 'disabled' || state === 'suspicious' ? 'suspended' : 'active')
const commissionState: Record<string, ImportedState> = { pending: 'pending', due: 'due', paid: 'paid', voided: 'reversed' }

/** One list read page by page: `map` turns an item into rows (or a skip reason). */
function pages(name: string, path: string, query: [string, string][], map: (item: Json, page: SourcePage) => void): SourceStep {
  return {
    name,
    async read(http: SourceHttp, page: string | null): Promise<SourcePage> {
      const body = obj(await http.get(path, [...query, ['page', page ?? '1'], ['limit', LIMIT]]))
      const out: SourcePage = { rows: [], skipped: [], next: null }
      for (const item of list(body.data)) map(item, out)
      const next = obj(body.pagination).next_page
      out.next = typeof next === 'number' ? String(next) : null
      return out
    },
  }
}

const keyOfReferral = (referral: Json) => customerKeyOf('rewardful', idOf(referral.id) ?? '', textOf(referral.stripe_customer_id))

export const rewardful: Source = {
  name: 'rewardful',
  base: 'https://api.getrewardful.com/v1',
  missing: () => null,
  headers: (o) => ({ authorization: `Basic ${btoa(`${o.apiKey}:`)}` }),
  errorText: (body) => textOf(obj(body).error),
  steps: () => [
    pages(
      'affiliates',
      '/affiliates',
      [
        ['expand[]', 'links'],
        ['expand[]', 'campaign'],
      ],
      (a, out) => {
        const id = idOf(a.id)
        if (!id) return
        const createdAt = timeOf(a.created_at, 0)
        out.rows.push({
          kind: 'partner',
          sourceId: id,
          at: createdAt,
          data: {
            name: nameOf(a.first_name, a.last_name),
            email: textOf(a.email),
            status: partnerStatus(a.state),
            paypalEmail: textOf(a.paypal_email),
            createdAt,
          },
        })
        for (const link of list(a.links)) {
          const token = textOf(link.token)
          if (token) out.rows.push({ kind: 'link', sourceId: idOf(link.id) ?? token, at: createdAt, data: { partner: id, token } })
        }
      },
    ),
    pages('coupons', '/affiliate_coupons', [], (c, out) => {
      const id = idOf(c.id)
      const partner = idOf(c.affiliate_id)
      const code = textOf(c.token)
      if (!id || !partner || !code) return
      if (c.archived === true) out.skipped.push({ kind: 'coupon', sourceId: id, reason: 'the coupon is archived in Rewardful' })
      else out.rows.push({ kind: 'coupon', sourceId: id, at: 0, data: { partner, code, promotionCode: textOf(c.external_id) } })
    }),
    pages(
      'referrals',
      '/referrals',
      [
        ['conversion_state[]', 'lead'],
        ['conversion_state[]', 'conversion'],
      ],
      (r, out) => {
        const id = idOf(r.id)
        const partner = idOf(obj(r.affiliate).id)
        if (!id) return
        if (!partner) return void out.skipped.push({ kind: 'customer', sourceId: id, reason: SKIP_REASONS.noPartner })
        const converted = r.conversion_state === 'conversion'
        const at = timeOf(converted ? r.became_conversion_at : r.became_lead_at, timeOf(r.created_at, 0))
        const email = textOf(obj(r.customer).email)
        out.rows.push({
          kind: 'customer',
          sourceId: id,
          at,
          data: { partner, key: keyOfReferral(r), email, converted },
        })
      },
    ),
    pages('commissions', '/commissions', [['expand[]', 'sale']], (c, out) => {
      const id = idOf(c.id)
      if (!id) return
      const sale = obj(c.sale)
      const partner = idOf(obj(sale.affiliate).id) ?? idOf(obj(c.affiliate).id)
      const amount = centsOf(c.amount)
      const state = commissionState[String(c.state)]
      if (!partner) return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.noPartner })
      if (amount === null || amount < 0 || !state)
        return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.amount })
      const referral = obj(sale.referral)
      const at = timeOf(c.created_at, 0)
      out.rows.push({
        kind: 'commission',
        sourceId: id,
        at,
        data: {
          partner,
          customerKey: idOf(referral.id) || textOf(referral.stripe_customer_id) ? keyOfReferral(referral) : null,
          state,
          amountCents: amount,
          currency: textOf(c.currency)?.toUpperCase() ?? textOf(sale.currency)?.toUpperCase() ?? null,
          saleAmountCents: centsOf(sale.sale_amount_cents) ?? centsOf(sale.charge_amount_cents) ?? 0,
          occurredAt: timeOf(sale.charged_at, at),
          paidAt: state === 'paid' ? timeOf(c.paid_at, at) : null,
        },
      })
    }),
    pages(
      'payouts',
      '/payouts',
      [
        ['expand[]', 'affiliate'],
        ['expand[]', 'commissions'],
      ],
      (p, out) => {
        const id = idOf(p.id)
        const partner = idOf(obj(p.affiliate).id) ?? idOf(p.affiliate)
        // Only paid ones are payouts already paid (docs/imports.md); the others' commissions stay due.
        if (!id || !partner || p.state !== 'paid') return
        const commissions = list(p.commissions)
          .map((c) => idOf(c.id))
          .filter((c): c is string => c !== null)
        out.rows.push({ kind: 'payout', sourceId: id, at: timeOf(p.paid_at, 0), data: { partner, commissions } })
      },
    ),
  ],
}
