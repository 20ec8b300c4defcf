// A local Rewardful REST API v1, answering exactly its documented shapes
// (https://developers.rewardful.com/rest-api/ — overview: Basic auth with the API Secret as user
// name, `page`/`limit` pages, `{ pagination, data }`; affiliates, affiliate_coupons, referrals,
// commissions, payouts objects). Test controls: a 429 with Retry-After on a path, and a gate that
// holds a page until released (a crash in the middle).

import { pageGates } from './gates.ts'

type Row = Record<string, unknown>

export interface FakeRewardful {
  url: string
  secret: string
  data: { affiliates: Row[]; affiliate_coupons: Row[]; referrals: Row[]; commissions: Row[]; payouts: Row[] }
  /** Every request: path, page and when it arrived (real ms). */
  requests: { path: string; page: number; at: number }[]
  /** Answer 429 with this Retry-After (seconds) to the first request of a path. */
  throttleOnce(path: string, retryAfterSeconds: number): void
  /** Hold requests of `path` page `page` until release() (answered with a dropped connection when stopped). */
  hold(path: string, page: number): { reached: Promise<void>; release(): void }
  stop(): void
}

export function startFakeRewardful(secret = 'sk_rewardful_test'): FakeRewardful {
  const data: FakeRewardful['data'] = { affiliates: [], affiliate_coupons: [], referrals: [], commissions: [], payouts: [] }
  const requests: FakeRewardful['requests'] = []
  const gates = pageGates()
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const path = url.pathname.replace(/^\/v1/, '')
      const page = Number(url.searchParams.get('page') ?? '1')
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), 100)
      requests.push({ path, page, at: Date.now() })
      if (request.headers.get('authorization') !== `Basic ${btoa(`${secret}:`)}`)
        return Response.json({ error: 'Invalid API Secret.' }, { status: 401 })
      const wait = gates.throttled(path)
      if (wait !== undefined)
        return Response.json({ error: 'Too many requests' }, { status: 429, headers: { 'retry-after': String(wait) } })
      await gates.pass(path, page)
      const name = path.slice(1) as keyof FakeRewardful['data']
      const rows = data[name]
      if (!rows) return Response.json({ error: 'Not found' }, { status: 404 })
      const totalPages = Math.max(1, Math.ceil(rows.length / limit))
      return Response.json({
        pagination: {
          previous_page: page > 1 ? page - 1 : null,
          current_page: page,
          next_page: page < totalPages ? page + 1 : null,
          count: Math.min(limit, Math.max(0, rows.length - (page - 1) * limit)),
          limit,
          total_pages: totalPages,
          total_count: rows.length,
        },
        data: rows.slice((page - 1) * limit, page * limit),
      })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    secret,
    data,
    requests,
    throttleOnce: gates.throttleOnce,
    hold: gates.hold,
    stop: () => server.stop(true),
  }
}

const iso = (day: number) => new Date(Date.UTC(2026, 3, day, 12)).toISOString()

/** A small program: three affiliates (one disabled), a coupon, two customers, four commissions in every state, one paid payout. */
export function seedRewardful(fake: FakeRewardful): void {
  const affiliate = (n: number, state: string, paypal: string | null) => ({
    id: `aff-uuid-${n}`,
    first_name: `Ada${n}`,
    last_name: 'Lovelace',
    email: `ada${n}@partners.test`,
    paypal_email: paypal,
    wise_email: null,
    state,
    created_at: iso(n),
    links: [{ id: `link-uuid-${n}`, url: `https://shop.test/?via=ada${n}`, token: `ada${n}`, visitors: 3, leads: 1, conversions: 1 }],
    campaign: { id: 'camp-1', name: 'Default' },
  })
  fake.data.affiliates.push(affiliate(1, 'active', 'ada1@paypal.test'), affiliate(2, 'disabled', null), affiliate(3, 'active', null))
  fake.data.affiliate_coupons.push({
    id: 'coupon-1',
    token: 'ADA10',
    external_id: 'promo_123',
    affiliate_id: 'aff-uuid-1',
    archived: false,
    archived_at: null,
  })
  const referral = (n: number, stripe: string | null, affiliateN: number) => ({
    id: `ref-${n}`,
    conversion_state: 'conversion',
    stripe_customer_id: stripe,
    customer: { id: `cust-${n}`, name: `Customer ${n}`, email: `c${n}@buyers.test`, platform: 'stripe' },
    link: { id: `link-uuid-${affiliateN}`, token: `ada${affiliateN}`, url: '' },
    affiliate: { id: `aff-uuid-${affiliateN}`, email: `ada${affiliateN}@partners.test` },
    created_at: iso(5),
    became_lead_at: iso(5),
    became_conversion_at: iso(6),
  })
  fake.data.referrals.push(referral(1, 'cus_A1', 1), referral(2, null, 3))
  const commission = (n: number, state: string, amount: number, ref: ReturnType<typeof referral>) => ({
    id: `comm-${n}`,
    amount,
    currency: 'USD',
    state,
    due_at: iso(10 + n),
    paid_at: state === 'paid' ? iso(20) : null,
    voided_at: state === 'voided' ? iso(21) : null,
    created_at: iso(7 + n),
    sale: {
      id: `sale-${n}`,
      currency: 'USD',
      charged_at: iso(7 + n),
      sale_amount_cents: amount * 10,
      charge_amount_cents: amount * 10,
      refund_amount_cents: 0,
      referral: { id: ref.id, stripe_customer_id: ref.stripe_customer_id, customer: ref.customer, link: ref.link },
      affiliate: ref.affiliate,
    },
  })
  const [r1, r2] = fake.data.referrals as ReturnType<typeof referral>[]
  fake.data.commissions.push(
    commission(1, 'paid', 1000, r1!),
    commission(2, 'due', 2000, r1!),
    commission(3, 'pending', 3000, r2!),
    commission(4, 'voided', 4000, r2!),
  )
  fake.data.payouts.push(
    {
      id: 'payout-1',
      state: 'paid',
      amount: 1000,
      currency: 'USD',
      paid_at: iso(20),
      affiliate: { id: 'aff-uuid-1' },
      commissions: [{ id: 'comm-1', amount: 1000, paid_at: iso(20) }],
    },
    {
      id: 'payout-2',
      state: 'due',
      amount: 2000,
      currency: 'USD',
      paid_at: null,
      affiliate: { id: 'aff-uuid-1' },
      commissions: [{ id: 'comm-2', amount: 2000, paid_at: null }],
    },
  )
}
