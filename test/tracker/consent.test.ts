// Consent mode (docs/decisions.md, Attribution without the cookie, and consent): with
// data-svc-consent="required" the tracker sends nothing and writes no cookie until
// svc.consent(true); the aff of the same page view is recorded then; consent(false) deletes the
// cookie and stops tracking. Real Chromium against the real server.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { clicked, describeBrowser, watchedPage } from './browser.ts'
import { startWorld, type World } from './setup.ts'

describeBrowser('consent mode', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld()
  })
  afterAll(() => world?.stop())

  /** A page on www.shop.test whose tracker tag asks for consent, opened with Alice's link. */
  async function landGated(context: BrowserContext): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const { page, errors } = await watchedPage(context)
    const requests: string[] = []
    page.on('request', (r) => r.url().includes('/api/v1/track/') && requests.push(new URL(r.url()).pathname))
    await page.route(world.shop.url('www.shop.test', '/consent*'), (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Shop</title><script src="${world.backend.url}/tracker.js" data-svc-consent="required"></script>`,
      }),
    )
    // A fulfilled page counts as public to Chromium, which then refuses loopback requests
    // (private network access): the service's answers are fetched and fulfilled here too.
    await page.route(`${world.backend.url}/**`, async (route) => route.fulfill({ response: await route.fetch() }))
    await page.goto(world.shop.url('www.shop.test', `/consent?aff=${world.backend.links.alice}`))
    return { page, requests, errors }
  }
  const settle = (page: Page) => page.evaluate(() => new Promise((r) => setTimeout(r, 300)))

  test('nothing is sent and no cookie written before consent; consent(true) records the click of this page view', async () => {
    const context = await world.context()
    const { page, requests, errors } = await landGated(context)
    await settle(page)
    expect(requests).toEqual([])
    expect(await context.cookies()).toEqual([])
    expect(await page.evaluate(() => (window as any).svc.getClickId())).toBeNull()

    await clicked(page, () => page.evaluate(() => (window as any).svc.consent(true)))
    expect(requests).toEqual(['/api/v1/track/click'])
    const id = await page.evaluate(() => (window as any).svc.getClickId())
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(await context.cookies()).toMatchObject([{ name: 'svc_click_id', value: id, domain: '.shop.test' }])
    expect(errors).toEqual([])
    await context.close()
  })

  test('consent queued through the stub before the script loads applies at once', async () => {
    const context = await world.context()
    await context.addInitScript(() => {
      ;(window as any).svc = { q: [['consent', [true]]] }
    })
    const answered = new Promise<number>((resolve) =>
      context.on('response', (r) => r.url().endsWith('/api/v1/track/click') && resolve(r.status())),
    )
    const { page } = await landGated(context)
    expect(await answered).toBe(200)
    await settle(page)
    expect((await context.cookies()).map((c) => c.name)).toEqual(['svc_click_id'])
    await context.close()
  })

  test('consent(false) deletes the cookie and stops tracking: a signup sends no lead', async () => {
    const context = await world.context()
    const { page, requests } = await landGated(context)
    await clicked(page, () => page.evaluate(() => (window as any).svc.consent(true)))
    expect(await context.cookies()).toHaveLength(1)
    await page.evaluate(() => (window as any).svc.consent(false))
    expect(await context.cookies()).toEqual([])
    expect(await page.evaluate(() => (window as any).svc.getClickId())).toBeNull()
    expect(await page.evaluate(() => (window as any).svc.signup('after-withdrawal', 'w@buyers.test'))).toBeNull()
    await settle(page)
    expect(requests).toEqual(['/api/v1/track/click'])
    await context.close()
  })

  test('refused before it was ever given: nothing is sent, a signup answers null, and a later consent(true) changes nothing', async () => {
    const context = await world.context()
    const { page, requests } = await landGated(context)
    const signup = await page.evaluate(() => {
      const svc = (window as any).svc
      const waiting = svc.signup('never', 'n@buyers.test')
      svc.consent(false)
      return waiting
    })
    expect(signup).toBeNull()
    await page.evaluate(() => (window as any).svc.consent(true))
    await settle(page)
    expect(requests).toEqual([])
    expect(await context.cookies()).toEqual([])
    await context.close()
  })

  test('an empty data-svc-consent attribute asks for consent too', async () => {
    const context = await world.context()
    const { page, errors } = await watchedPage(context)
    const requests: string[] = []
    page.on('request', (r) => r.url().includes('/api/v1/track/') && requests.push(r.url()))
    await page.route(world.shop.url('www.shop.test', '/empty*'), (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Shop</title><script src="${world.backend.url}/tracker.js" data-svc-consent></script>`,
      }),
    )
    await page.route(`${world.backend.url}/**`, async (route) => route.fulfill({ response: await route.fetch() }))
    await page.goto(world.shop.url('www.shop.test', `/empty?aff=${world.backend.links.alice}`))
    await settle(page)
    expect(requests).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
