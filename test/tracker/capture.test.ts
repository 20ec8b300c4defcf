// Capture in a real browser: where the tracker puts svc_click_id and for how long.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { clicked, describeBrowser, watchedPage } from './browser.ts'
import { DAY, WINDOW_DAYS, secondsLeft, startWorld, type World } from './setup.ts'

describeBrowser('tracker capture', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld()
  })
  afterAll(() => world?.stop())

  const cookieOf = async (context: import('playwright-core').BrowserContext) =>
    (await context.cookies()).find((c) => c.name === 'svc_click_id')

  test('a click on www.shop.test sets svc_click_id on the root domain, readable from app.shop.test', async () => {
    const context = await world.context()
    const { page, errors } = await watchedPage(context)
    await clicked(page, () => page.goto(world.shop.url('www.shop.test', `/?aff=${world.backend.links.alice}`)))
    const cookie = await cookieOf(context)
    expect(cookie).toMatchObject({ domain: '.shop.test', path: '/', sameSite: 'Lax', secure: false, httpOnly: false })
    expect((await context.cookies()).map((c) => c.name)).toEqual(['svc_click_id']) // the probe is gone
    expect(await page.evaluate(() => (window as any).svc.getClickId())).toBe(cookie!.value)

    const other = await context.newPage()
    await other.goto(world.shop.url('app.shop.test', '/signup'))
    await other.waitForFunction(() => (window as any).svc?.getClickId)
    expect(await other.evaluate(() => (window as any).svc.getClickId())).toBe(cookie!.value)
    expect(errors).toEqual([])
    await context.close()
  })

  test("the cookie lives as long as the program's attribution window", async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    await clicked(page, () => page.goto(world.shop.url('www.shop.test', `/?aff=${world.backend.links.alice}`)))
    const left = secondsLeft((await cookieOf(context))!.expires)
    expect(Math.abs(left - WINDOW_DAYS * DAY)).toBeLessThan(120)
    await context.close()
  })

  test('a window longer than 400 days is clamped to the 400 days browsers allow', async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    await page.route('**/api/v1/track/click', (route) =>
      route.fulfill({
        headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
        body: JSON.stringify({ success: true, click_id: 'long0window0click', cookie_window_days: 1000 }),
      }),
    )
    await clicked(page, () => page.goto(world.shop.url('www.shop.test', '/?aff=anything')))
    const cookie = await cookieOf(context)
    expect(cookie?.value).toBe('long0window0click')
    expect(Math.abs(secondsLeft(cookie!.expires) - 400 * DAY)).toBeLessThan(120)
    await context.close()
  })

  test('cookieDomain given to init overrides root-domain detection, also from a stub that stubs getClickId too', async () => {
    const context = await world.context()
    // The stub queue, as the README snippet builds it (plus a getClickId placeholder some
    // integrations add), set up before any page script runs.
    await context.addInitScript(() => {
      ;(window as any).svc = { q: [['init', [{ cookieDomain: 'www.shop.test' }]]], getClickId: () => null }
    })
    const { page } = await watchedPage(context)
    await clicked(page, () => page.goto(world.shop.url('www.shop.test', `/?aff=${world.backend.links.alice}`)))
    expect((await cookieOf(context))?.domain).toBe('.www.shop.test')
    const other = await context.newPage()
    await other.goto(world.shop.url('app.shop.test', '/signup'))
    await other.waitForFunction(() => (window as any).svc?.getClickId)
    expect(await other.evaluate(() => (window as any).svc.getClickId())).toBeNull()
    await context.close()
  })

  test('on localhost and on an IP address the cookie is host-only', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const context = await world.context()
      const { page } = await watchedPage(context)
      await clicked(page, () => page.goto(world.shop.url(host, `/?aff=${world.backend.links.alice}`)))
      expect((await cookieOf(context))?.domain).toBe(host) // no leading dot: no domain attribute
      await context.close()
    }
  })

  test('a page without aff sends no click and sets no cookie', async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    await page.goto(world.shop.url('www.shop.test', '/'))
    await page.waitForFunction(() => (window as any).svc?.getClickId)
    expect(requests.filter((u) => u.includes('/api/v1/track/'))).toEqual([])
    expect(await cookieOf(context)).toBeUndefined()
    await context.close()
  })
})
