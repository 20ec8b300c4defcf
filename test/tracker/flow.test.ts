// The whole path of docs/api.md "What the service does": capture in the browser, the lead and
// the sale reported by the example shop's backend with the server client, attribution.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { clicked, describeBrowser, watchedPage } from './browser.ts'
import { startWorld, type World } from './setup.ts'

describeBrowser('capture, signup and sale', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld()
  })
  afterAll(() => world?.stop())

  const land = (page: Page, partner: 'alice' | 'bob') =>
    clicked(page, () => page.goto(world.shop.url('www.shop.test', `/?aff=${world.backend.links[partner]}`)))

  /** Uses the shop's signup page on app.shop.test; answers the two results it shows. */
  async function signUpAndBuy(page: Page, customerId: string) {
    await page.goto(world.shop.url('app.shop.test', '/signup'))
    const shown = async (action: () => Promise<void>) => {
      await page.evaluate(() => (document.getElementById('result')!.textContent = ''))
      await action()
      await page.waitForFunction(() => document.getElementById('result')!.textContent)
      return JSON.parse((await page.textContent('#result'))!)
    }
    const lead = await shown(async () => {
      await page.fill('input[name=customerId]', customerId)
      await page.fill('input[name=email]', `${customerId}@buyers.test`)
      await page.click('form button')
    })
    const sale = await shown(() => page.click('#buy'))
    return { lead, sale }
  }

  test('a sale after signup on another subdomain pays the partner whose link was clicked', async () => {
    const context = await world.context()
    const { page, errors } = await watchedPage(context)
    await land(page, 'alice')
    const { lead, sale } = await signUpAndBuy(page, `cust-${crypto.randomUUID()}`)
    expect(lead).toMatchObject({ ok: true })
    expect(sale).toMatchObject({ ok: true, data: { amount_cents: 4900, commission: { partner_id: world.backend.partners.alice } } })
    expect(errors).toEqual([])
    await context.close()
  })

  test("first click wins: a second partner's link keeps the cookie and the first partner", async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    await land(page, 'alice')
    const first = await page.evaluate(() => (window as any).svc.getClickId())
    const expiry = (await context.cookies())[0]!.expires

    const request = page.waitForRequest((r) => r.url().endsWith('/api/v1/track/click'))
    await land(page, 'bob')
    expect(JSON.parse((await request).postData()!)).toMatchObject({ click_id: first })
    expect(await context.cookies()).toMatchObject([{ name: 'svc_click_id', value: first, expires: expiry }])

    const { sale } = await signUpAndBuy(page, `cust-${crypto.randomUUID()}`)
    expect(sale).toMatchObject({ ok: true, data: { commission: { partner_id: world.backend.partners.alice } } })
    await context.close()
  })

  test('svc.signup sends a browser-mode lead as text/plain with the click id, also when queued', async () => {
    const context = await world.context()
    // A signup queued through the stub before the tracker loaded must wait for the click.
    await context.addInitScript(() => {
      ;(window as any).svc = { q: [['signup', ['queued-customer', 'queued@buyers.test']]] }
    })
    const { page } = await watchedPage(context)
    const leads: { body: any; type: string | undefined }[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/track/lead')) leads.push({ body: JSON.parse(r.postData()!), type: r.headers()['content-type'] })
    })
    const queuedAnswer = page.waitForResponse((r) => r.url().endsWith('/api/v1/track/lead'))
    await land(page, 'alice')
    expect((await queuedAnswer).status()).toBe(200)
    const clickId = await page.evaluate(() => (window as any).svc.getClickId())

    const answer = await page.evaluate(() => (window as any).svc.signup('direct-customer', 'direct@buyers.test'))
    expect(answer).toMatchObject({ data: { provisional: true } }) // lead_auth server_required by default
    expect(leads).toEqual([
      { body: { click_id: clickId, customer_key: 'queued-customer', email: 'queued@buyers.test' }, type: 'text/plain;charset=UTF-8' },
      { body: { click_id: clickId, customer_key: 'direct-customer', email: 'direct@buyers.test' }, type: 'text/plain;charset=UTF-8' },
    ])
    await context.close()
  })
})
