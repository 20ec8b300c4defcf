// Local fakes of the four sources' documented APIs (docs/imports.md), over one small
// program ("the world") each renders in its own shapes, pages, auth and error bodies:
// - Rewardful REST API v1: https://developers.rewardful.com/rest-api/ (Basic SECRET:, page/limit, { pagination, data })
// - Tolt API v1: https://docs.tolt.com (Bearer, program_id, limit/starting_after, { success, has_more, data }; customers data.data)
// - FirstPromoter API v2: https://docs.firstpromoter.com/api-reference-v2/api-admin (Bearer + Account-ID, page/per_page, arrays)
// - PartnerStack Vendor API v2: https://docs.partnerstack.com/reference (Basic PUBLIC:SECRET, limit/starting_after, { data: { has_more, items } })
// Test controls: a 429 with Retry-After on a path's first request, and a page held until released.
import { pageGates } from './gates.ts'
import type { ImportSource } from '../../src/domain/imports.ts'

type Row = Record<string, unknown>

/** The program every fake serves: three partners, a coupon, two customers, four commissions in each state and `bulk` more due ones. */
export interface World {
  tag: string
  partners: { n: number; state: 'active' | 'suspended'; paypal: string | null; token: string }[]
  customers: { n: number; partner: number; stripe: string | null }[]
  commissions: {
    n: number
    partner: number
    customer: number
    state: 'paid' | 'due' | 'pending' | 'reversed'
    amount: number
    day: number
  }[]
  coupon: { partner: number; code: string }
}

export function world(bulk: number): World {
  const tag = Math.random().toString(36).slice(2, 8)
  const commissions: World['commissions'] = [
    { n: 1, partner: 1, customer: 1, state: 'paid', amount: 1000, day: 8 },
    { n: 2, partner: 1, customer: 1, state: 'due', amount: 2000, day: 9 },
    { n: 3, partner: 3, customer: 2, state: 'pending', amount: 3000, day: 10 },
    { n: 4, partner: 3, customer: 2, state: 'reversed', amount: 4000, day: 11 },
  ]
  for (let i = 0; i < bulk; i++) commissions.push({ n: 100 + i, partner: 3, customer: 2, state: 'due', amount: 100 + i, day: 12 })
  return {
    tag,
    partners: [
      { n: 1, state: 'active', paypal: 'ada1@paypal.test', token: `${tag}-ada1` },
      { n: 2, state: 'suspended', paypal: null, token: `${tag}-ada2` },
      { n: 3, state: 'active', paypal: null, token: `${tag}-ada3` },
    ],
    customers: [
      { n: 1, partner: 1, stripe: `cus_${tag}1` },
      { n: 2, partner: 3, stripe: null },
    ],
    commissions,
    coupon: { partner: 1, code: `ADA${tag}` },
  }
}

const iso = (day: number) => new Date(Date.UTC(2026, 3, day, 12)).toISOString()
const ms = (day: number) => Date.UTC(2026, 3, day, 12)

export interface Fake {
  source: ImportSource
  url: string
  /** The import request's credentials for this source (api_key, and source_program_id / account_id). */
  credentials: Record<string, string>
  wrongKey: Record<string, string>
  /** The error words the source answers a wrong key with. */
  wrongKeyText: string
  /** The path of the commissions list, for throttling and holding. */
  commissionsPath: string
  requests: { path: string; page: string; at: number }[]
  throttleOnce(path: string, seconds: number): void
  hold(path: string, page: string): { reached: Promise<void>; release(): void }
  stop(): void
}

interface Rendered {
  auth(request: Request): boolean
  unauthorized(): Response
  lists: Record<string, Row[]>
  /** Answers one list page: its page key (page number or starting_after) from the query. */
  page(rows: Row[], url: URL, path: string): { body: unknown; pageKey: string }
  credentials: Record<string, string>
  wrongKey: Record<string, string>
  wrongKeyText: string
  commissionsPath: string
  basePath: string
}

function rewardful(w: World): Rendered {
  const secret = 'sk_rewardful_test'
  const affiliate = (p: World['partners'][number]) => ({
    id: `aff-${w.tag}-${p.n}`,
    first_name: `Ada${p.n}`,
    last_name: 'Lovelace',
    email: `ada${p.n}@partners.test`,
    paypal_email: p.paypal,
    wise_email: null,
    state: p.state === 'suspended' ? 'disabled' : 'active',
    created_at: iso(p.n),
    links: [{ id: `link-${p.n}`, url: `https://shop.test/?via=${p.token}`, token: p.token, visitors: 0, leads: 0, conversions: 0 }],
    campaign: { id: 'camp-1', name: 'Default' },
  })
  const referral = (c: World['customers'][number]) => ({
    id: `ref-${c.n}`,
    conversion_state: 'conversion',
    stripe_customer_id: c.stripe,
    customer: { id: `cust-${c.n}`, name: `Customer ${c.n}`, email: `c${c.n}@buyers.test`, platform: 'stripe' },
    link: { id: `link-${c.partner}`, token: w.partners[c.partner - 1]!.token, url: '' },
    affiliate: { id: `aff-${w.tag}-${c.partner}`, email: `ada${c.partner}@partners.test` },
    created_at: iso(5),
    became_lead_at: iso(5),
    became_conversion_at: iso(6),
  })
  const states = { paid: 'paid', due: 'due', pending: 'pending', reversed: 'voided' }
  return {
    basePath: '/v1',
    auth: (r) => r.headers.get('authorization') === `Basic ${btoa(`${secret}:`)}`,
    unauthorized: () => Response.json({ error: 'Invalid API Secret.' }, { status: 401 }),
    lists: {
      '/affiliates': w.partners.map(affiliate),
      '/affiliate_coupons': [
        { id: 'coupon-1', token: w.coupon.code, external_id: null, affiliate_id: `aff-${w.tag}-1`, archived: false, archived_at: null },
      ],
      '/referrals': w.customers.map(referral),
      '/commissions': w.commissions.map((c) => ({
        id: `comm-${c.n}`,
        amount: c.amount,
        currency: 'USD',
        state: states[c.state],
        due_at: iso(c.day + 30),
        paid_at: c.state === 'paid' ? iso(20) : null,
        voided_at: null,
        created_at: iso(c.day),
        sale: {
          id: `sale-${c.n}`,
          currency: 'USD',
          charged_at: iso(c.day),
          sale_amount_cents: c.amount * 10,
          charge_amount_cents: c.amount * 10,
          refund_amount_cents: 0,
          referral: referral(w.customers[c.customer - 1]!),
          affiliate: { id: `aff-${w.tag}-${c.partner}` },
        },
      })),
      '/payouts': [
        {
          id: 'payout-1',
          state: 'paid',
          amount: 1000,
          currency: 'USD',
          paid_at: iso(20),
          affiliate: { id: `aff-${w.tag}-1` },
          commissions: [{ id: 'comm-1', amount: 1000, paid_at: iso(20) }],
        },
      ],
    },
    page(rows, url) {
      const page = Number(url.searchParams.get('page') ?? '1')
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), 100)
      const total = Math.max(1, Math.ceil(rows.length / limit))
      return {
        pageKey: String(page),
        body: {
          pagination: {
            previous_page: page > 1 ? page - 1 : null,
            current_page: page,
            next_page: page < total ? page + 1 : null,
            count: rows.slice((page - 1) * limit, page * limit).length,
            limit,
            total_pages: total,
            total_count: rows.length,
          },
          data: rows.slice((page - 1) * limit, page * limit),
        },
      }
    },
    credentials: { api_key: secret },
    wrongKey: { api_key: 'sk_wrong' },
    wrongKeyText: 'rewardful answered 401: Invalid API Secret.',
    commissionsPath: '/commissions',
  }
}

/** Cursor pages by id (Tolt, PartnerStack): the rows after `starting_after`, at most `limit`. */
function after(rows: Row[], url: URL, key: string, max: number) {
  const limit = Math.min(Number(url.searchParams.get('limit') ?? '10'), max)
  const start = url.searchParams.get('starting_after')
  const from = start ? rows.findIndex((r) => r[key] === start) + 1 : 0
  const items = rows.slice(from, from + limit)
  return { items, hasMore: from + limit < rows.length, pageKey: start ?? '' }
}

function tolt(w: World): Rendered {
  const key = 'tolt_live_key'
  const programId = 'prg_1'
  const states = { paid: 'paid', due: 'approved', pending: 'pending', reversed: 'rejected' }
  return {
    basePath: '/v1',
    auth: (r) => r.headers.get('authorization') === `Bearer ${key}` && new URL(r.url).searchParams.get('program_id') === programId,
    unauthorized: () =>
      Response.json({ success: false, error: { message: 'Invalid API key', type: 'authentication_error' } }, { status: 401 }),
    lists: {
      '/partners': w.partners.map((p) => ({
        id: `part_${p.n}`,
        first_name: `Ada${p.n}`,
        last_name: 'Lovelace',
        email: `ada${p.n}@partners.test`,
        company_name: null,
        status: p.state,
        payout_method: p.paypal ? 'paypal' : 'none',
        payout_details: p.paypal ? { email: p.paypal } : null,
        country_code: 'FR',
        group_id: null,
        created_at: iso(p.n),
        program: { id: programId, name: 'Shop', currency_code: 'USD' },
      })),
      '/links': w.partners.map((p) => ({ id: `lnk_${p.n}`, param: 'ref', value: p.token, partner_id: `part_${p.n}` })),
      '/promotion-codes': [{ id: 'prc_1', code: w.coupon.code, partner_id: `part_${w.coupon.partner}`, type: 'percentage', value: 10 }],
      '/customers': w.customers.map((c) => ({
        id: `cust_${c.n}`,
        customer_id: c.stripe ?? `user_${c.n}`,
        email: `c${c.n}@buyers.test`,
        name: `Customer ${c.n}`,
        status: 'active',
        partner_id: `part_${c.partner}`,
      })),
      '/commissions': w.commissions.map((c) => ({
        id: `comm_${c.n}`,
        amount: String(c.amount),
        revenue: String(c.amount * 10),
        currency: null,
        status: states[c.state],
        customer_id: `cust_${c.customer}`,
        partner_id: `part_${c.partner}`,
        transaction_id: `tx_${c.n}`,
        charge_id: `ch_${c.n}`,
        payout_id: c.state === 'paid' ? 'po_1' : null,
        created_at: iso(c.day),
      })),
    },
    page(rows, url, path) {
      const { items, hasMore, pageKey } = after(rows, url, 'id', 100)
      const data = path === '/customers' ? { data: items } : items
      return { pageKey, body: { success: true, has_more: hasMore, total_count: rows.length, data } }
    },
    credentials: { api_key: key, source_program_id: programId },
    wrongKey: { api_key: 'tolt_wrong', source_program_id: programId },
    wrongKeyText: 'tolt answered 401: Invalid API key',
    commissionsPath: '/commissions',
  }
}

function firstpromoter(w: World): Rendered {
  const key = 'fp_key'
  const account = 'acc_1'
  const promoter = (n: number) => ({ id: n, email: `ada${n}@partners.test` })
  return {
    basePath: '/api/v2/company',
    auth: (r) => r.headers.get('authorization') === `Bearer ${key}` && r.headers.get('account-id') === account,
    unauthorized: () => Response.json({ message: 'Invalid API key or Account-ID', code: 'unauthorized' }, { status: 401 }),
    lists: {
      '/promoters': w.partners.map((p) => ({
        id: p.n,
        email: `ada${p.n}@partners.test`,
        name: `Ada${p.n} Lovelace`,
        cust_id: null,
        profile: { first_name: `Ada${p.n}`, last_name: 'Lovelace', paypal_email: p.paypal },
        selected_payout_method: { method: p.paypal ? 'paypal' : null },
        promoter_campaigns: [
          {
            id: 100 + p.n,
            campaign_id: 1,
            state: p.state === 'suspended' ? 'blocked' : 'accepted',
            ref_token: p.token,
            ref_link: `https://shop.test?fpr=${p.token}`,
            coupon: p.n === w.coupon.partner ? w.coupon.code : null,
            campaign: { id: 1, name: 'Default' },
          },
        ],
        archived_at: null,
        created_at: iso(p.n),
      })),
      '/referrals': w.customers.map((c) => ({
        id: c.n,
        email: `c${c.n}@buyers.test`,
        uid: c.stripe ?? `user_${c.n}`,
        state: 'active',
        created_at: iso(5),
        customer_since: iso(6),
        promoter_campaign: { id: 100 + c.partner, promoter: promoter(c.partner) },
      })),
      '/commissions': w.commissions.map((c) => {
        const cust = w.customers[c.customer - 1]!
        return {
          id: c.n,
          status: c.state === 'pending' ? 'pending' : c.state === 'reversed' ? 'denied' : 'approved',
          is_paid: c.state === 'paid',
          amount: c.amount,
          sale_amount: c.amount * 10,
          original_sale_currency: 'usd',
          unit: 'cash',
          commission_type: 'sale',
          created_at: iso(c.day),
          referral: { id: cust.n, email: `c${cust.n}@buyers.test`, uid: cust.stripe ?? `user_${cust.n}` },
          promoter_campaign: { promoter: promoter(c.partner) },
        }
      }),
    },
    page(rows, url, path) {
      const page = Number(url.searchParams.get('page') ?? '1')
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? '20'), 100)
      const items = rows.slice((page - 1) * perPage, page * perPage)
      return { pageKey: String(page), body: path === '/promoters' ? { data: items, meta: { pending_count: 0 } } : items }
    },
    credentials: { api_key: key, account_id: account },
    wrongKey: { api_key: 'fp_wrong', account_id: account },
    wrongKeyText: 'firstpromoter answered 401: Invalid API key or Account-ID',
    commissionsPath: '/commissions',
  }
}

function partnerstack(w: World): Rendered {
  const pair = 'pk_public:sk_secret'
  const states = { paid: 'paid', due: 'approved', pending: 'hold', reversed: 'declined' }
  return {
    basePath: '/api/v2',
    auth: (r) => r.headers.get('authorization') === `Basic ${btoa(pair)}`,
    unauthorized: () => Response.json({ message: 'Unauthorized', status: 401 }, { status: 401 }),
    lists: {
      '/partnerships': w.partners.map((p) => ({
        key: `part_${p.n}`,
        partner_key: p.token,
        email: `ada${p.n}@partners.test`,
        first_name: `Ada${p.n}`,
        last_name: 'Lovelace',
        group: { key: 'grp_1', name: 'Default', slug: 'default' },
        joined_at: ms(p.n),
        created_at: ms(p.n),
        stats: {},
      })),
      '/customers': w.customers.map((c) => ({
        key: `cust_${c.n}`,
        customer_key: `user_${c.n}`,
        email: `c${c.n}@buyers.test`,
        name: `Customer ${c.n}`,
        partner_key: w.partners[c.partner - 1]!.token,
        partnership_key: `part_${c.partner}`,
        provider_key: c.stripe,
        test: false,
        created_at: ms(6),
      })),
      '/rewards': w.commissions.map((c) => ({
        key: `rew_${c.n}`,
        amount: c.amount,
        currency: 'usd',
        reward_status: states[c.state],
        created_at: ms(c.day),
        customer: { key: `cust_${c.customer}`, customer_key: `user_${c.customer}`, email: `c${c.customer}@buyers.test` },
        partnership: { key: `part_${c.partner}`, partner_key: w.partners[c.partner - 1]!.token, email: `ada${c.partner}@partners.test` },
        transaction: { key: `tx_${c.n}`, amount: c.amount * 10, currency: 'usd' },
      })),
    },
    page(rows, url) {
      const { items, hasMore, pageKey } = after(rows, url, 'key', 250)
      return { pageKey, body: { data: { has_more: hasMore, items }, message: '', status: 200 } }
    },
    credentials: { api_key: pair },
    wrongKey: { api_key: 'pk_public:sk_wrong' },
    wrongKeyText: 'partnerstack answered 401: Unauthorized',
    commissionsPath: '/rewards',
  }
}

const renderers: Record<ImportSource, (w: World) => Rendered> = { rewardful, tolt, firstpromoter, partnerstack }

/** Serves `w` as `source` documents it, on a free local port. */
export function startFake(source: ImportSource, w: World): Fake {
  const r = renderers[source](w)
  const requests: Fake['requests'] = []
  const gates = pageGates()
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const path = url.pathname.slice(r.basePath.length)
      const rows = r.lists[path]
      if (!r.auth(request)) return r.unauthorized()
      if (!rows) return Response.json({ message: 'Not found' }, { status: 404 })
      const { body, pageKey } = r.page(rows, url, path)
      requests.push({ path, page: pageKey, at: Date.now() })
      const wait = gates.throttled(path)
      if (wait !== undefined)
        return Response.json({ message: 'Too many requests' }, { status: 429, headers: { 'retry-after': String(wait) } })
      await gates.pass(path, pageKey)
      return Response.json(body)
    },
  })
  return {
    source,
    url: `http://127.0.0.1:${server.port}${r.basePath}`,
    credentials: r.credentials,
    wrongKey: r.wrongKey,
    wrongKeyText: r.wrongKeyText,
    commissionsPath: r.commissionsPath,
    requests,
    throttleOnce: gates.throttleOnce,
    hold: gates.hold,
    stop: () => server.stop(true),
  }
}
