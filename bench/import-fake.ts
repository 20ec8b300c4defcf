// A Rewardful REST API v1 fake for bench/imports.ts, generating its pages on demand in the
// documented shapes (developers.rewardful.com/rest-api/: Basic auth with the secret, page/limit,
// { pagination, data }): N affiliates with one link each, two referrals each, M commissions spread
// over them (pending, due, paid, voided in turn) and one paid payout per affiliate naming its paid ones.
const SECRET = 'sk_bench'
const STATES = ['pending', 'due', 'paid', 'voided']
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + (n % 300) * 86_400_000).toISOString()

export function startImportFake(partners: number, commissions: number) {
  const perPartner = Math.ceil(commissions / partners)
  let requests = 0
  const affiliate = (i: number) => ({
    id: `aff-${i}`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    email: `partner${i}@partners.test`,
    paypal_email: i % 2 ? `partner${i}@paypal.test` : null,
    wise_email: null,
    state: i % 50 === 0 ? 'disabled' : 'active',
    created_at: day(i),
    links: [{ id: `link-${i}`, url: `https://shop.test/?via=p${i}`, token: `p${i}`, visitors: 0, leads: 0, conversions: 0 }],
    campaign: { id: 'c1', name: 'Default' },
  })
  const referral = (r: number) => {
    const a = r % partners
    return {
      id: `ref-${r}`,
      conversion_state: 'conversion',
      stripe_customer_id: r % 2 ? `cus_bench${r}` : null,
      customer: { id: `cu-${r}`, name: `Customer ${r}`, email: `c${r}@buyers.test`, platform: 'stripe' },
      link: { id: `link-${a}`, token: `p${a}`, url: '' },
      affiliate: { id: `aff-${a}`, email: `partner${a}@partners.test` },
      created_at: day(r),
      became_lead_at: day(r),
      became_conversion_at: day(r),
    }
  }
  const state = (k: number) => STATES[Math.floor(k / partners) % 4]!
  const commission = (k: number) => {
    const a = k % partners
    const s = state(k)
    return {
      id: `c-${k}`,
      amount: 100 + (k % 900),
      currency: 'USD',
      state: s,
      due_at: day(k + 30),
      paid_at: s === 'paid' ? day(k + 40) : null,
      voided_at: null,
      created_at: day(k),
      sale: {
        id: `s-${k}`,
        currency: 'USD',
        charged_at: day(k),
        sale_amount_cents: 1000 + (k % 9000),
        charge_amount_cents: 1000,
        refund_amount_cents: 0,
        referral: referral(a + partners * (k % 2)),
        affiliate: { id: `aff-${a}`, email: `partner${a}@partners.test` },
      },
    }
  }
  const payout = (a: number) => {
    const paid: { id: string; amount: number; paid_at: string }[] = []
    for (let j = 0; j < perPartner; j++) {
      const k = a + j * partners
      if (k < commissions && state(k) === 'paid') paid.push({ id: `c-${k}`, amount: 100 + (k % 900), paid_at: day(k + 40) })
    }
    return {
      id: `po-${a}`,
      state: 'paid',
      amount: 0,
      currency: 'USD',
      paid_at: day(a + 40),
      affiliate: { id: `aff-${a}` },
      commissions: paid,
    }
  }
  const lists: Record<string, [number, (i: number) => unknown]> = {
    '/v1/affiliates': [partners, affiliate],
    '/v1/affiliate_coupons': [0, () => null],
    '/v1/referrals': [partners * 2, referral],
    '/v1/commissions': [commissions, commission],
    '/v1/payouts': [partners, payout],
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      requests++
      if (request.headers.get('authorization') !== `Basic ${btoa(`${SECRET}:`)}`)
        return Response.json({ error: 'Invalid API Secret.' }, { status: 401 })
      const url = new URL(request.url)
      const list = lists[url.pathname]
      if (!list) return Response.json({ error: 'Not found' }, { status: 404 })
      const [count, make] = list
      const page = Number(url.searchParams.get('page') ?? '1')
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), 100)
      const pages = Math.max(1, Math.ceil(count / limit))
      const data = []
      for (let i = (page - 1) * limit; i < Math.min(count, page * limit); i++) data.push(make(i))
      return Response.json({
        pagination: {
          previous_page: page > 1 ? page - 1 : null,
          current_page: page,
          next_page: page < pages ? page + 1 : null,
          count: data.length,
          limit,
          total_pages: pages,
          total_count: count,
        },
        data,
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}/v1`, secret: SECRET, requests: () => requests, stop: () => server.stop(true) }
}
