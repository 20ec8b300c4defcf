// The owner's daily work through the dashboard's forms (docs/decisions.md, First run: what the
// operator API does for one account, its owner does in the dashboard too).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'
import { followLink, publicOrigin, signInAccount } from './sessions.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const csrfOf = (text: string) => text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!

/** A signed-in owner's browser: GETs and same-site form posts with the page's token. */
async function owner(accountId: number) {
  const cookie = await signInAccount(api, accountId)
  const get = async (path: string) => {
    const reply = await fetch(api.url + path, { headers: { cookie }, redirect: 'manual' })
    return {
      status: reply.status,
      location: reply.headers.get('location'),
      type: reply.headers.get('content-type'),
      text: await reply.text(),
    }
  }
  const csrf = csrfOf((await get('/dashboard')).text)
  const post = async (path: string, form: Record<string, string>) => {
    const reply = await fetch(api.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
    })
    return { status: reply.status, location: reply.headers.get('location') ?? '', text: await reply.text() }
  }
  return { get, post }
}

describe('programs and settings', () => {
  test('New program creates a program of the account and shows its key once; a refused field is named', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const made = await o.post('/dashboard/programs', {
      name: 'Second shop',
      domain: 'second.test',
      commission_type: 'fixed',
      commission_rate: '5',
    })
    expect(made.status).toBe(200)
    const key = made.text.match(/id="new-key" value="([^"]+)"/)![1]!
    const ready = await api.call('GET', '/api/v1/programs/me/readiness', { token: key })
    expect(ready.status).toBe(200)
    const programs = (await api.admin('GET', '/programs')).body.data
    expect(programs.find((p: { program_id: number }) => p.program_id === ready.body.data.program_id)).toMatchObject({
      name: 'Second shop',
      commission_type: 'fixed',
    })
    const refused = await o.post('/dashboard/programs', { name: 'x', domain: 'x.test', commission_type: 'percent', commission_rate: '150' })
    expect(refused.location).toBe('/dashboard?error=commission_rate#new-program')
    expect((await o.get('/dashboard?error=commission_rate')).text).toContain('at most 100 for the percent types')
  })

  test('settings name the field they refuse, and save who may join', async () => {
    const f = await api.setupProgram({ partner_signup: 'approval' })
    // One application waits: the tabs count it, on the refused page as on the GET page.
    const applied = await api.call('POST', `/join/${f.programId}`, {
      body: { name: 'Gil', email: `${unique('gil')}@partner.test` },
      headers: { 'x-forwarded-for': unique('ip') },
    })
    expect(applied.status).toBe(202)
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}/settings`
    const fields = {
      name: 'Shop',
      domain: 'shop.test',
      commission_type: 'percent',
      commission_rate: '10',
      attribution_window_days: '60',
      holding_period_days: '30',
      minimum_payout: '0',
      lead_auth: 'server_required',
      partner_signup: 'approval',
      recurring_months: '',
    }
    const before = (await api.admin('GET', `/programs/${f.programId}`)).body.data[0]
    // Refused: the page again (400) with the problem stated and everything typed kept, selects too; nothing saved.
    const typed = { ...fields, name: 'Typed <name>', commission_type: 'fixed', partner_signup: 'open', recurring_months: '7' }
    const refused = await o.post(base, { ...typed, attribution_window_days: '0' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain(
      '<p class="error" role="alert" data-field="attribution_window_days">Not saved: the attribution window is a whole number of days from 1 to 3650.</p>',
    )
    expect(refused.text).toContain('name="attribution_window_days" value="0" inputmode="numeric" required aria-invalid="true"')
    expect(refused.text.match(/aria-invalid/g)).toHaveLength(1)
    expect(refused.text).toContain('name="name" value="Typed &lt;name&gt;"')
    expect(refused.text).toContain('name="recurring_months" value="7"')
    expect(refused.text).toContain('<option value="fixed" selected>')
    expect(refused.text).not.toContain('<option value="percent" selected>')
    expect(refused.text).toContain('<option value="open" selected>')
    expect(refused.text).not.toContain('<option value="approval" selected>')
    // The GET page's layout: its title, its tabs with their counts.
    const shown = await o.get(base)
    const tabs = (text: string) => text.match(/<nav class="tabs">[\s\S]*?<\/nav>/)![0]
    expect(tabs(refused.text)).toContain('data-pending="1"')
    expect(tabs(refused.text)).toBe(tabs(shown.text))
    expect(refused.text).toContain(`<title>Settings · ${before.name}`)
    expect(shown.text).not.toContain('role="alert"')
    expect(shown.text).toContain(`name="name" value="${before.name}"`)
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0]).toEqual(before)

    const rate = await o.post(base, { ...fields, commission_rate: '101' })
    expect(rate.status).toBe(400)
    expect(rate.text).toContain(
      'data-field="commission_rate">Not saved: the commission rate must be a positive number, at most 100 for the percent types.',
    )
    expect(rate.text).toContain('name="commission_rate" value="101"')
    expect((await o.post(base, fields)).location).toContain('done=settings_saved')
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0].partner_signup).toBe('approval')
  })
})

describe('partners', () => {
  test('the partner page edits terms and payout details, suspends, and deletes only without sales', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}/partners/${f.partnerId}`
    expect((await o.get(base)).text).toContain('Paid by:')
    const saved = await o.post(base, {
      name: 'Ada',
      email: 'ada@partner.test',
      commission_type: '',
      commission_rate: '25',
      recurring_months: '',
      payout_method: 'paypal',
      payout_details: 'ada@paypal.test',
    })
    expect(saved.location).toContain('done=partner_saved')
    const shown = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data[0]
    expect(shown).toMatchObject({
      name: 'Ada',
      commission_type: null,
      commission_rate: 25,
      payout_method: 'paypal',
      payout_details: 'ada@paypal.test',
    })
    expect((await o.post(base, { name: 'Ada', commission_rate: '-3' })).location).toContain('error=partner_rate_invalid')

    expect((await o.post(`${base}/status`, { action: 'suspend' })).location).toContain('done=partner_suspended')
    expect((await k.click(f)).status).toBe(410)
    expect((await o.post(`${base}/status`, { action: 'suspend' })).location).toContain('error=status_conflict')
    expect((await o.post(`${base}/status`, { action: 'unsuspend' })).location).toContain('done=partner_unsuspended')

    const key = unique('c')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key })).status).toBe(200)
    expect((await o.post(`${base}/delete`, {})).location).toContain('error=partner_has_sales')
    const other = await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'Gone soon' })
    const deleted = await o.post(`/dashboard/programs/${f.programId}/partners/${other.body.data.partner_id}/delete`, {})
    expect(deleted.location).toContain('done=partner_deleted')
    expect((await o.get(`/dashboard/programs/${f.programId}/partners`)).text).not.toContain('Gone soon')
  })

  test('the partners page filters, sorts, and the link form chooses the partner just created', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}/partners`
    const made = await o.post(base, { name: 'Zed Searchable', email: 'zed@find.test' })
    const id = Number(new URL(made.location, api.url).searchParams.get('partner'))
    expect(id).toBeGreaterThan(0)
    expect((await o.get(`${base}?done=partner_created&partner=${id}`)).text).toContain(`<option value="${id}" selected>`)
    const found = (await o.get(`${base}?q=SEARCHABLE`)).text
    expect(found).toContain('Zed Searchable')
    expect(found).not.toContain(`data-partner="${f.partnerId}"`)
    expect((await o.get(`${base}?status=suspended`)).text).toContain('No partner matches.')
    const byName = (await o.get(`${base}?sort=name`)).text
    expect(byName.indexOf(`data-partner="${f.partnerId}"`)).toBeLessThan(byName.indexOf(`data-partner="${id}"`))
  })
})

describe('sales, refunds and exports', () => {
  test('a sale recorded by hand is judged as the API judges it, and refunded by hand', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}`
    const key = unique('hand')
    await k.customer(f, key)
    const recorded = await o.post(`${base}/sales`, { customer_key: key, amount: '49.90', currency: 'EUR', transaction_id: 'INV-77' })
    expect(recorded.location).toContain('done=sale_recorded')
    const sales = (await api.admin('GET', `/programs/${f.programId}/sales`)).body.data
    expect(sales[0]).toMatchObject({ transaction_id: 'INV-77', amount_cents: 4990, currency: 'EUR', provider: 'manual' })
    expect(
      (await o.post(`${base}/sales`, { customer_key: key, amount: '49.90', currency: 'EUR', transaction_id: 'INV-77' })).location,
    ).toContain('error=sale_duplicate')
    expect((await o.post(`${base}/sales`, { customer_key: 'nobody', amount: '10', currency: 'USD' })).location).toContain(
      'error=sale_rejected',
    )
    expect((await o.post(`${base}/sales`, { customer_key: key, amount: '1.234', currency: 'USD' })).location).toContain(
      'error=sale_invalid',
    )
    const page = (await o.get(`${base}/sales`)).text
    expect(page).toContain('First click wins: the customer was found by its customer key')
    expect((await o.post(`${base}/refunds`, { transaction_id: 'INV-77', reason: 'refund' })).location).toContain('done=refund_done')
    expect((await o.post(`${base}/refunds`, { transaction_id: 'INV-77', reason: 'refund' })).location).toContain('done=refund_again')
    expect((await o.post(`${base}/refunds`, { transaction_id: 'nope', reason: 'refund' })).location).toContain('error=refund_missing')
    const ledger = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    expect(ledger.map((e: { kind: string }) => e.kind)).toEqual(['reversal', 'commission'])
  })

  test('the three CSV downloads answer the operator API text, filters included', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const key = unique('csv')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key })).status).toBe(200)
    for (const name of ['sales', 'commissions', 'partners']) {
      const page = await o.get(`/dashboard/programs/${f.programId}/${name}.csv`)
      expect(page.status).toBe(200)
      expect(page.type).toBe('text/csv; charset=utf-8')
      const api_ = await api.call('GET', `/api/v1/admin/programs/${f.programId}/${name}.csv`, { token: 'test-admin-token-0123456789' })
      expect(page.text).toBe(api_.body)
    }
    const none = await o.get(`/dashboard/programs/${f.programId}/sales.csv?from=2099-01-01`)
    expect(none.text.trim().split('\r\n')).toHaveLength(1)
    expect((await o.get(`/dashboard/programs/${f.programId}/sales.csv?from=junk`)).location).toContain('error=dates_invalid')
  })
})

describe('the portal', () => {
  test('a partner saves payout details, and the payouts CSV carries them; the portal names the program and its terms', async () => {
    const f = await api.setupProgram({ name: 'Portal Shop', holding_period_days: 0 })
    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
    expect(portal).toContain('Portal Shop')
    expect(portal).toContain('10% of each referred customer')
    expect(portal).toContain('Attribution window')
    const save = await fetch(`${api.url}/partner/payout-details`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrfOf(portal), payout_method: 'bank', payout_details: 'A. Partner, IBAN DE00 1234' }).toString(),
    })
    expect(save.headers.get('location')).toContain('done=payout_details_saved')
    const key = unique('p')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key })).status).toBe(200)
    // The partner signed in from this machine, and its customer clicked from it: loopback is never same_ip (docs/decisions.md, The first hour).
    expect((await api.admin('GET', `/programs/${f.programId}/commissions?status=held`)).body.data).toEqual([])
    expect((await api.admin('POST', `/programs/${f.programId}/payouts`, {})).status).toBe(201)
    const csv = await api.call('GET', `/api/v1/admin/programs/${f.programId}/payouts.csv`, { token: 'test-admin-token-0123456789' })
    expect(csv.body).toContain(',pending,bank,"A. Partner, IBAN DE00 1234"')
  })
})

describe('who is owed', () => {
  test("the pending part is 'due from' the day its first pending entry is due, not a day of money already due", async () => {
    const f = await api.setupProgram({
      holding_period_days: 30,
      minimum_payout: 20,
      commission_type: 'recurring_percent',
      commission_rate: 10,
    })
    const key = unique('p')
    await k.customer(f, key)
    // USD 10.00, due in 30 days; then 30 days and an hour later it is due, under the USD 20 minimum: it stays due.
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: 10_000 })).status).toBe(200)
    api.clock.advance(30 * 86_400_000 + 3_600_000)
    // A second USD 10.00, pending for 30 days from now.
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: 10_000 })).status).toBe(200)
    const { get } = await owner(f.accountId)
    const page = (await get(`/dashboard/programs/${f.programId}/payouts`)).text
    const later = new Date(api.clock.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    expect(page).toContain(`due from ${later}`)
    expect(page).not.toContain(`due from ${new Date(api.clock.now()).toISOString().slice(0, 10)}`)
  })
})

describe('coupons on the pages', () => {
  test("the partner's page adds and deletes coupon codes; a taken code is refused; the portal shows the partner theirs", async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}/partners/${f.partnerId}`
    const added = await o.post(`${base}/coupons`, { code: 'Spring24', stripe_promotion_code: 'promo_SPR' })
    expect(added.location).toBe(`${base}?done=coupon_created`)
    const shown = await o.get(base)
    expect(shown.text).toContain('<code>Spring24</code>')
    expect(shown.text).toContain('<code>promo_SPR</code>')
    expect((await o.post(`${base}/coupons`, { code: 'SPRING24' })).location).toBe(`${base}?error=coupon_taken`)
    expect((await o.post(`${base}/coupons`, { code: 'no spaces' })).location).toBe(`${base}?error=coupon_code_invalid`)
    expect((await o.post(`${base}/coupons`, { code: 'OK', stripe_promotion_code: 'co_1' })).location).toBe(
      `${base}?error=coupon_promotion_invalid`,
    )

    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    expect(await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()).toContain('<code data-coupon>Spring24</code>')

    const [coupon] = (await api.admin('GET', `/programs/${f.programId}/coupons`)).body.data
    expect((await o.post(`/dashboard/programs/${f.programId}/coupons/${coupon.coupon_id}/delete`, {})).location).toBe(
      `${base}?done=coupon_deleted`,
    )
    expect((await api.admin('GET', `/programs/${f.programId}/coupons`)).body.data).toEqual([])
    // Another program's coupon is not this owner's to delete.
    const other = await api.setupProgram()
    const theirs = (await api.admin('POST', `/programs/${other.programId}/partners/${other.partnerId}/coupons`, { code: 'THEIRS' })).body
      .data
    expect((await o.post(`/dashboard/programs/${f.programId}/coupons/${theirs.coupon_id}/delete`, {})).status).toBe(404)
  })
})

describe('review and unique clicks', () => {
  test('a held commission waits on the Review tab with its flags in words; approve and reject through the page', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const o = await owner(f.accountId)
    const held = async () => {
      const click = await k.click(f, { affiliate_url: `https://shop.test/?aff=${f.shortLink}&gclid=ad` })
      const key = unique('c')
      await k.lead(f, { click_id: click.body.click_id, customer_key: key })
      await k.sale(f, { transaction_id: unique('t'), customer_key: key })
      return (await api.admin('GET', `/programs/${f.programId}/commissions?limit=1`)).body.data[0].commission_id as number
    }
    const first = await held()
    const second = await held()
    const page = await o.get(`/dashboard/programs/${f.programId}/review`)
    expect(page.text).toContain('data-held="2"')
    expect(page.text).toContain(`data-held="${first}"`)
    expect(page.text).toContain('The click came from a paid ad')
    const approved = await o.post(`/dashboard/programs/${f.programId}/review/${first}`, { action: 'approve' })
    expect(approved.location).toBe(`/dashboard/programs/${f.programId}/review?done=review_approved`)
    const rejected = await o.post(`/dashboard/programs/${f.programId}/review/${second}`, { action: 'reject', reason: 'Own ad' })
    expect(rejected.location).toBe(`/dashboard/programs/${f.programId}/review?done=review_rejected`)
    const again = await o.post(`/dashboard/programs/${f.programId}/review/${second}`, { action: 'approve' })
    expect(again.location).toBe(`/dashboard/programs/${f.programId}/review?error=review_conflict`)
    const after = await o.get(`/dashboard/programs/${f.programId}/review`)
    expect(after.text).not.toContain('data-held="')
    expect(after.text).toContain('Nothing waits for review.')
    const entries = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    expect(entries.find((e: { commission_id: number }) => e.commission_id === first)).toMatchObject({ status: 'due', review: 'approved' })
    expect(entries.find((e: { commission_id: number }) => e.commission_id === second)).toMatchObject({
      status: 'reversed',
      review_reason: 'Own ad',
    })
    // Settings: flag mode holds nothing more; the ledger page shows the flags.
    const ledger = await o.get(`/dashboard/programs/${f.programId}/commissions`)
    expect(ledger.text).toContain('⚑ paid ads')
    const settings = await o.get(`/dashboard/programs/${f.programId}/settings`)
    expect(settings.text).toContain('name="fraud_review"')
  })

  test('the funnel and the per-day chart show unique clicks (one per IP per link per hour) beside all clicks', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    for (let i = 0; i < 3; i++) await k.click(f)
    api.clock.advance(3_600_000)
    await k.click(f)
    const overview = await o.get(`/dashboard/programs/${f.programId}`)
    expect(overview.text).toContain('data-unique-clicks="2"')
    expect(overview.text).toContain('4 in all, <span class="key-inner">2 unique</span>')
  })
})
