// The dashboard and the partner portal in real Chromium (issue 13): sign-in by link, every page
// without console errors or requests to another host, figures equal to the API's, the forms,
// a payout run, the portal's isolation, and screenshots at 1280 and 390 px for review.
import { verifyStatement } from '../../../src/domain/statement.ts'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { describeBrowser, launch } from '../../tracker/browser.ts'
import { atPublicUrl, days, startApi, type Api, type Fixture } from '../../helpers.ts'
import { startReceiver } from '../../outbox/receiver.ts'
import { startSmtp } from '../../outbox/smtp.ts'
import { trackingSetup, type Kit } from '../track/kit.ts'

const SHOTS = join(import.meta.dir, '../../../test-artifacts/dashboard')

/** Full-page screenshots of `page` at 1280 and 390 px for review, leaving it at 1280. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

describeBrowser('dashboard and partner portal', () => {
  let api: Api
  let k: Kit
  let f: Fixture
  let bob: Fixture
  let other: Fixture
  let browser: Awaited<ReturnType<typeof launch>>
  let owner: BrowserContext
  const foreign: string[] = []
  let fortnight = 0

  /** A context whose every request is checked to stay on the test server. */
  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.on('request', (r) => {
      const url = new URL(r.url())
      if (url.protocol !== 'data:' && url.host !== new URL(api.url).host) foreign.push(r.url())
    })
    return context
  }

  /** A page whose console errors and page errors are collected. */
  async function watched(context: BrowserContext) {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(String(e)))
    return { page, errors }
  }

  const onServer = (url: string) => api.url + new URL(url).pathname
  const link = async (path: string) => onServer((await api.admin('POST', path)).body.data.url)

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ;({ api, k } = await trackingSetup(undefined, await atPublicUrl()))
    f = await api.setupProgram({ name: 'Shop', allowed_origins: ['http://localhost:5173'], holding_period_days: 0 })
    bob = await k.partnerLink(f, `bob${Date.now()}`)
    other = await api.setupProgram({ name: 'Not yours' })
    // A fortnight of clicks, one day at a time, so that the charts have something to draw.
    for (let day = 0; day < 14; day++) {
      for (let i = 0; i < ((day * 7) % 5) + 1; i++, fortnight++) await k.clickId(f)
      api.clock.advance(days(1))
    }
    // Ada: three clicks, two customers with sales (one refunded); Bob: two clicks, one sale in EUR.
    for (let i = 0; i < 3; i++) await k.clickId(f)
    const a1 = await k.customer(f, 'ada-customer-1')
    await k.lead(f, { customer_key: 'ada-customer-1', email: 'secret-buyer@buyers.test' })
    await k.customer(f, 'ada-customer-2')
    expect((await k.sale(f, { customer_key: 'ada-customer-1', transaction_id: 'txn-a1', amount_cents: 10000 })).status).toBe(200)
    expect((await k.sale(f, { customer_key: 'ada-customer-2', transaction_id: 'txn-a2', amount_cents: 5000 })).status).toBe(200)
    expect((await k.refund(f, { transaction_id: 'txn-a2' })).status).toBe(200)
    const b = await k.clickId(bob)
    await k.clickId(bob)
    await k.lead(bob, { click_id: b, customer_key: 'bob-customer', email: 'bob-buyer@buyers.test' })
    expect(
      (await k.sale(bob, { customer_key: 'bob-customer', transaction_id: 'txn-b1', amount_cents: 2000, currency: 'EUR' })).status,
    ).toBe(200)
    expect(a1.customerId).toBeGreaterThan(0)
    // Bob's customer from a paid ad, with a throwaway email: the commission is held for review.
    const ad = await k.click(bob, { affiliate_url: `https://shop.test/pricing?aff=${bob.shortLink}&gclid=ad-1` })
    await k.lead(bob, { click_id: ad.body.click_id, customer_key: 'bob-ad-customer', email: 'deal@mailinator.com' })
    expect((await k.sale(bob, { customer_key: 'bob-ad-customer', transaction_id: 'txn-b2', amount_cents: 8000 })).status).toBe(200)
    // Another account's program has data of its own.
    await k.customer(other, 'other-customer')
    browser = await launch()
    owner = await newContext()
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  test('a dashboard link signs in once; opened again it signs nobody in', async () => {
    const url = await link(`/accounts/${f.accountId}/dashboard-link`)
    const { page, errors } = await watched(owner)
    // Opening the link only shows its button (mail scanners open links too); the button signs in.
    await page.goto(url)
    expect(new URL(page.url()).pathname).toBe(new URL(url).pathname)
    expect((await owner.cookies()).map((c) => c.name)).not.toContain('svc_session')
    await shoot(page, 'sign-in-link')
    await page.click('button:text("Sign in")')
    expect(new URL(page.url()).pathname).toBe('/dashboard')
    expect(await page.textContent('h1')).toBe('Your programs')
    expect(await page.content()).not.toContain('Not yours')
    await shoot(page, 'programs')

    const stranger = await newContext()
    const second = await watched(stranger)
    const response = await second.page.goto(url)
    expect(response!.status()).toBe(410)
    expect(await second.page.textContent('main')).toContain('already used or has expired')
    expect((await stranger.cookies()).map((c) => c.name)).not.toContain('svc_session')
    await second.page.goto(`${api.url}/dashboard`)
    expect(new URL(second.page.url()).pathname).toBe('/sign-in')
    await shoot(second.page, 'sign-in')
    await stranger.close()
    expect(errors.filter((e) => !e.includes('410'))).toEqual([])
  })

  test('every page loads with no console error and no request to another host', async () => {
    const base = `${api.url}/dashboard/programs/${f.programId}`
    const pages: [string, string][] = [
      ['overview', ''],
      ['overview-90', '?days=90'],
      ['partners', '/partners'],
      ['partner', `/partners/${f.partnerId}`],
      ['sales', '/sales'],
      ['commissions', '/commissions'],
      ['review', '/review'],
      ['payouts', '/payouts'],
      ['events', '/events'],
      ['settings', '/settings'],
    ]
    for (const [name, path] of pages) {
      const { page, errors } = await watched(owner)
      const response = await page.goto(base + path)
      expect({ name, status: response!.status() }).toEqual({ name, status: 200 })
      await page.waitForLoadState('load')
      expect({ name, errors }).toEqual({ name, errors: [] })
      await shoot(page, name)
      await page.close()
    }
    const missing = await (await watched(owner)).page.goto(`${api.url}/dashboard/programs/${other.programId}`)
    expect(missing!.status()).toBe(404)
    expect(await missing!.text()).not.toContain('Not yours')
    expect(foreign).toEqual([])
  })

  test("the overview's figures equal the API's", async () => {
    const { page } = await watched(owner)
    await page.goto(`${api.url}/dashboard/programs/${f.programId}`)
    const cards = await page.$$eval('[data-funnel] .card', (els) =>
      els.map((e) => [e.querySelector('span')!.textContent, e.querySelector('b')!.textContent]),
    )
    const shown = Object.fromEntries(cards.map(([label, n]) => [label, Number(n!.replace(/,/g, ''))]))
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })
    const live = readiness.body.data.counts.live
    expect(shown).toEqual({ clicks: live.clicks, leads: live.leads, customers: 4, sales: live.sales })
    const customers = (await api.admin('GET', `/programs/${f.programId}/customers?limit=200`)).body.data
    expect(shown.customers).toBe(customers.filter((c: { status: string }) => c.status === 'converted').length)
    // Revenue per currency: the sum of the API's sales; commissions: the ledger's sum.
    const sales = (await api.admin('GET', `/programs/${f.programId}/sales?limit=200`)).body.data
    const ledger = (await api.admin('GET', `/programs/${f.programId}/commissions?limit=200`)).body.data
    for (const currency of ['USD', 'EUR']) {
      const row = await page.$eval(`tr[data-currency="${currency}"]`, (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
      const revenue = sales
        .filter((s: { currency: string }) => s.currency === currency)
        .reduce((a: number, s: { amount_cents: number }) => a + s.amount_cents, 0)
      // The Commissions column leaves out what is held for review (its own column).
      const commission = ledger
        .filter((c: { currency: string; status: string }) => c.currency === currency && c.status !== 'held')
        .reduce((a: number, c: { amount_cents: number }) => a + c.amount_cents, 0)
      expect(row[1]).toBe(`${currency} ${(revenue / 100).toFixed(2)}`)
      // Sales, Refunded, Net sales, then Commissions (nothing is held here).
      expect(row[4]).toBe(`${currency} ${(commission / 100).toFixed(2)}`)
    }
    expect(await page.$$eval('svg[role=img]', (els) => els.length)).toBeGreaterThanOrEqual(4)
  })

  test('a partner and a link made through the forms work for a click; turned off, the link answers 410', async () => {
    const { page, errors } = await watched(owner)
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/partners`)
    await page.fill('input[name=name]', 'Cleo')
    await page.fill('input[name=email]', 'cleo@partners.test')
    await page.click('button:text("Create partner")')
    expect(await page.textContent('[role=status]')).toBe('Partner created. Now give them a link below.')
    const cleo = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.find((p: { name: string }) => p.name === 'Cleo')
    const short = `cleo${Date.now()}`
    await page.selectOption('select[name=partner_id]', String(cleo.partner_id))
    await page.fill('#create-link input[name=short_link]', short)
    await page.click('button:text("Create link")')
    expect(await page.textContent('[role=status]')).toBe('Link created.')
    expect(await page.inputValue(`[data-link="${short}"] input.url`)).toBe(`https://shop.test/?aff=${short}`)
    const click = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${short}` } })
    expect(click.status).toBe(200)
    await page.reload()
    expect(await page.textContent(`[data-partner="${cleo.partner_id}"] [data-stat=clicks]`)).toBe('1')
    await page.click(`[data-link="${short}"] button:text("Turn off")`)
    expect(await page.textContent('[role=status]')).toContain('Link turned off')
    expect((await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${short}` } })).status).toBe(410)
    await page.click(`[data-link="${short}"] button:text("Turn on")`)
    expect((await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${short}` } })).status).toBe(200)
    expect(errors).toEqual([])
  })

  test('settings, a payout run and "mark paid" through the pages', async () => {
    const { page, errors } = await watched(owner)
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/settings`)
    await page.fill('input[name=holding_period_days]', '7')
    await page.click('button:text-is("Save")')
    expect(await page.textContent('[role=status]')).toBe('Settings saved.')
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0].holding_period_days).toBe(7)
    // The entries booked so far keep the holding period they were booked with, 0 (docs/decisions.md, Groups: fixed when booked).

    await page.goto(`${api.url}/dashboard/programs/${f.programId}/payouts`)
    await page.click('button:text("Run payouts")')
    expect(await page.textContent('[role=status]')).toBe('Payout run done: 2 payouts created, one per partner and currency.')
    const payouts = (await api.admin('GET', `/programs/${f.programId}/payouts`)).body.data
    // Ada: 10% of 100.00 (the refunded sale's pair nets out); Bob: 10% of EUR 20.00.
    expect(
      payouts.map((p: { partner_id: number; currency: string; amount_cents: number }) => [p.partner_id, p.currency, p.amount_cents]).sort(),
    ).toEqual(
      [
        [f.partnerId, 'USD', 1000],
        [bob.partnerId, 'EUR', 200],
      ].sort(),
    )
    const ada = payouts.find((p: { partner_id: number }) => p.partner_id === f.partnerId)
    await page.fill(`tr[data-payout="${ada.payout_id}"] input[name=reference]`, 'WIRE-42')
    await page.click(`tr[data-payout="${ada.payout_id}"] button:text("Mark paid")`)
    expect(await page.textContent('[role=status]')).toBe('Payout marked paid.')
    const paid = (await api.admin('GET', `/payouts/${ada.payout_id}`)).body.data[0]
    expect(paid).toMatchObject({ status: 'paid', reference: 'WIRE-42' })
    const bobs = payouts.find((p: { partner_id: number }) => p.partner_id === bob.partnerId)
    await page.click(`tr[data-payout="${bobs.payout_id}"] button:text("Cancel")`)
    expect(await page.textContent('[role=status]')).toContain('Payout canceled')
    const csv = await owner.request.get(`${api.url}/dashboard/programs/${f.programId}/payouts.csv`)
    expect(csv.status()).toBe(200)
    expect(await csv.text()).toContain(`${ada.payout_id},${f.partnerId},`)
    await shoot(page, 'payouts-after-run')

    await page.goto(`${api.url}/dashboard/programs/${f.programId}/partners`)
    expect(await page.textContent(`[data-partner="${f.partnerId}"] [data-status-currency=USD]`)).toContain('USD 10.00 paid')
    expect(await page.textContent(`[data-partner="${bob.partnerId}"] [data-status-currency=EUR]`)).toContain('EUR 2.00 due')
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/commissions`)
    expect(await page.textContent('main')).toContain('paid')
    expect(errors).toEqual([])
  })

  test("the partner portal shows one partner's data only, and no customer email", async () => {
    const { page } = await watched(owner)
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/partners`)
    await page.click(`[data-partner="${f.partnerId}"] a`)
    expect(new URL(page.url()).pathname).toBe(`/dashboard/programs/${f.programId}/partners/${f.partnerId}`)
    await shoot(page, 'partner')
    await page.click('button:text("Portal link")')
    const url = await page.inputValue('#portal-link')
    await shoot(page, 'portal-link')

    const partnerContext = await newContext()
    const portal = await watched(partnerContext)
    await portal.page.goto(onServer(url))
    await portal.page.click('button:text("Sign in")')
    expect(new URL(portal.page.url()).pathname).toBe('/partner')
    const text = (await portal.page.textContent('main'))!
    const links = await portal.page.$$eval('input.url', (els) => els.map((e) => (e as HTMLInputElement).value))
    expect(links).toEqual([`https://shop.test/?aff=${f.shortLink}`])
    expect(await portal.page.content()).not.toContain(bob.shortLink)
    expect(text).not.toContain('@buyers.test')
    expect(text).not.toContain('ada-customer')
    expect(text).not.toContain('Not yours')
    expect(text).toContain('WIRE-42')
    const funnel = await portal.page.$$eval('[data-funnel] .card b', (els) => els.map((e) => e.textContent))
    // Ada's clicks (the fortnight's, three, her two customers'), two leads, two sales; none of Bob's.
    expect(funnel).toEqual([String(5 + fortnight), '2', '2'])
    expect(await portal.page.textContent('main')).toContain('paid')
    expect(portal.errors).toEqual([])
    await shoot(portal.page, 'portal')
    // The Statements panel's first link is this month's signed statement, and it verifies (docs/ledger.md).
    const href = (await portal.page.getAttribute('#statements li a', 'href'))!
    expect(href).toMatch(/^\/partner\/statements\/\d{4}-\d{2}\.json$/)
    // Fetched with the browser's own cookies (the link is a download: the page's CSP allows no fetch).
    const statement = await (await partnerContext.request.get(new URL(href, portal.page.url()).href)).json()
    expect(statement.partner_id).toBe(f.partnerId)
    expect(await verifyStatement(statement)).toMatchObject({ ok: true })
    // The owner's pages are not the partner's: they lead back to the portal.
    await portal.page.goto(`${api.url}/dashboard/programs/${f.programId}`)
    expect(new URL(portal.page.url()).pathname).toBe('/partner')
    // Sign out through the page: the session is over.
    await portal.page.goto(`${api.url}/partner`)
    await portal.page.click('button:text("Sign out")')
    expect(new URL(portal.page.url()).pathname).toBe('/partner/sign-in')
    await portal.page.goto(`${api.url}/partner`)
    expect(new URL(portal.page.url()).pathname).toBe('/partner/sign-in')
    await partnerContext.close()
    expect(foreign).toEqual([])
  })
})

describeBrowser('the first run', () => {
  test('a fresh server: / leads to /setup; the code from the server output makes the account, shows the key and signs in', async () => {
    const api = await startApi({ env: await atPublicUrl() })
    const browser = await launch()
    try {
      const code = api.announced[0]!.split(' ').pop()!
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const foreign: string[] = []
      context.on('request', (r) => {
        if (new URL(r.url()).host !== new URL(api.url).host) foreign.push(r.url())
      })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await page.goto(`${api.url}/`)
      expect(new URL(page.url()).pathname).toBe('/setup')
      await shoot(page, 'setup')
      await page.fill('input[name=code]', 'WRONG-WRONG-WRONG')
      await page.fill('input[name=email]', 'founder@shop.test')
      await page.fill('input[name=program_name]', 'Shop Partners')
      await page.fill('input[name=domain]', 'shop.test')
      await page.click('button:text("Create my account and program")')
      expect(await page.textContent('[role=alert]')).toContain('not the setup code')
      await page.fill('input[name=code]', code)
      await page.click('button:text("Create my account and program")')
      expect(await page.textContent('h1')).toBe('Your program is ready')
      expect(await page.inputValue('#api-key')).toMatch(/\S{20,}/)
      await shoot(page, 'setup-done')
      await page.click('a:text("Open your dashboard")')
      expect(await page.textContent('h1')).toContain('Shop Partners')
      // The one error is the wrong code's own 403.
      expect(errors.filter((e) => !e.includes('403'))).toEqual([])
      expect(foreign).toEqual([])
    } finally {
      await browser.close()
      await api.stop()
    }
  }, 60_000)
})

describeBrowser('partners who join on their own', () => {
  test('apply on the join page, approve from Applications, open the emailed portal link', async () => {
    const smtp = await startSmtp()
    const api = await startApi({ env: { ...(await atPublicUrl()), SMTP_URL: smtp.url } })
    const browser = await launch()
    try {
      const account = await api.admin('POST', '/accounts', { email: 'owner@join.test' })
      const program = await api.admin('POST', '/programs', {
        account_id: account.body.data.account_id,
        name: 'Join Shop',
        domain: 'join.test',
        commission_type: 'recurring_percent',
        commission_rate: 25,
        partner_signup: 'approval',
      })
      const programId = program.body.data.program_id
      const foreign: string[] = []
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      context.on('request', (r) => {
        if (new URL(r.url()).host !== new URL(api.url).host) foreign.push(r.url())
      })
      const applicant = await context.newPage()
      const errors: string[] = []
      applicant.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await applicant.goto(`${api.url}/join/${programId}`)
      expect(await applicant.textContent('h1')).toBe('Become a partner of Join Shop')
      expect(await applicant.textContent('main')).toContain('25% of every sale of a referred customer')
      await shoot(applicant, 'join')
      await applicant.fill('input[name=name]', 'Gil')
      await applicant.fill('input[name=email]', 'gil@partners.test')
      await applicant.fill('textarea[name=promotion]', 'A cooking channel')
      await applicant.fill('input[name=short_link]', 'gil')
      await applicant.click('button:text("Send my application")')
      expect(await applicant.textContent('h1')).toBe('Check your email')
      await shoot(applicant, 'join-sent')

      const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await owner.newPage()
      await page.goto(
        `${api.url}${new URL((await api.admin('POST', `/accounts/${account.body.data.account_id}/dashboard-link`)).body.data.url).pathname}`,
      )
      await page.click('button:text("Sign in")')
      await page.goto(`${api.url}/dashboard/programs/${programId}`)
      expect(await page.textContent('nav.tabs [data-pending]')).toBe('1')
      await page.click('nav.tabs a:has-text("Applications")')
      expect(await page.textContent('main')).toContain('A cooking channel')
      await shoot(page, 'applications')
      await page.click('[data-application] button:text("Approve")')
      expect(await page.textContent('[role=status]')).toContain('Partner approved')

      const mail = (await smtp.waitFor(3)).find((m) => m.subject === 'Join Shop approved your application')!
      expect(mail.text).toContain('https://join.test/?aff=gil')
      const link = mail.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
      await applicant.goto(link)
      await applicant.click('button:text("Sign in")')
      expect(new URL(applicant.url()).pathname).toBe('/partner')
      expect(await applicant.inputValue('[data-link="gil"] input.url')).toBe('https://join.test/?aff=gil')
      await applicant.click('[data-link="gil"] summary')
      expect(await applicant.$$eval('[data-link="gil"] .qr svg', (els) => els.length)).toBe(1)
      await shoot(applicant, 'portal-joined')
      expect(errors).toEqual([])
      expect(foreign).toEqual([])
    } finally {
      await browser.close()
      await api.stop()
      await smtp.stop()
    }
  }, 60_000)
})

describeBrowser('the Webhooks page', () => {
  test('add an endpoint (secret shown once), send a test, see it delivered, turn it off', async () => {
    const receiver = await startReceiver()
    const api = await startApi({ env: { ...(await atPublicUrl()), WEBHOOKS_ALLOW_PRIVATE: 'true' } })
    const browser = await launch()
    try {
      const f = await api.setupProgram({ name: 'Hooked Shop' })
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await page.goto(`${api.url}${new URL((await api.admin('POST', `/accounts/${f.accountId}/dashboard-link`)).body.data.url).pathname}`)
      await page.click('button:text("Sign in")')
      await page.goto(`${api.url}/dashboard/programs/${f.programId}/webhooks`)
      await page.fill('input[name=url]', receiver.url)
      await page.fill('input[name=description]', 'Our CRM')
      await page.check('input[name="event_sale.created"]')
      await page.click('button:text("Add endpoint")')
      const secret = await page.inputValue('#webhook-secret')
      expect(secret).toMatch(/^whsec_/)
      await page.click('[data-webhook] button:text("Send test")')
      expect(await page.textContent('[role=status]')).toBe('Test event delivered.')
      expect(await page.textContent('[data-webhook] [data-delivery]')).toContain('delivered')
      expect(receiver.verify(receiver.hits[0]!, secret)).toMatchObject({ type: 'webhook.test' })
      await shoot(page, 'webhooks')
      await page.click('[data-webhook] button:text("Turn off")')
      expect(await page.textContent('[role=status]')).toContain('Endpoint off')
      expect(errors).toEqual([])
    } finally {
      await browser.close()
      await api.stop()
      await receiver.close()
    }
  }, 60_000)
})
