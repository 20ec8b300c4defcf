// The tracker in a hostile page: cookies blocked, the network failing, a refused origin.
// Whatever happens, no exception reaches the host page.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { buildTracker } from '../../tracker/build.ts'
import { clicked, describeBrowser, watchedPage } from './browser.ts'
import { startWorld, type World } from './setup.ts'

describeBrowser('tracker robustness', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld()
  })
  afterAll(() => world?.stop())

  const landing = (host = 'www.shop.test', extra = '') => world.shop.url(host, `/?aff=${world.backend.links.alice}${extra}`)
  const clickIdOf = (page: Page) => page.evaluate(() => (window as any).svc.getClickId())
  const svcLines = (logs: string[]) => logs.filter((l) => l.includes('[svc]'))
  const noCookie = async (context: BrowserContext) => expect((await context.cookies()).filter((c) => c.name === 'svc_click_id')).toEqual([])

  test('with cookies disabled by the browser, getClickId is null and debug warns', async () => {
    const context = await world.context()
    const { page, logs, errors } = await watchedPage(context)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setDocumentCookieDisabled', { disabled: true })
    await clicked(page, () => page.goto(landing('www.shop.test', '&debug')))
    expect(await clickIdOf(page)).toBeNull()
    expect(logs).toContain('warning: [svc] cookies blocked')
    expect(errors).toEqual([])
    await context.close()
  })

  test('when document.cookie throws (a sandboxed frame), the tracker carries on', async () => {
    const context = await world.context()
    await context.addInitScript(() => {
      const deny = () => {
        throw new DOMException('The document is sandboxed', 'SecurityError')
      }
      Object.defineProperty(Document.prototype, 'cookie', { get: deny, set: deny })
    })
    const { page, errors } = await watchedPage(context)
    await clicked(page, () => page.goto(landing()))
    expect(await clickIdOf(page)).toBeNull()
    expect(errors).toEqual([])
    await context.close()
  })

  test('network failures and 500s are logged as [svc] errors without debug and never thrown', async () => {
    for (const fail of ['abort', '500'] as const) {
      const context = await world.context()
      const { page, logs, errors } = await watchedPage(context)
      await page.route('**/api/v1/track/*', (route) =>
        fail === 'abort'
          ? route.abort('connectionreset')
          : route.fulfill({
              status: 500,
              headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
              body: JSON.stringify({
                data: null,
                error: { status: 500, name: 'InternalServerError', message: 'Click tracking failed', details: {} },
              }),
            }),
      )
      await page.goto(landing())
      await page.waitForFunction(() => (window as any).svc?.getClickId)
      // signup waits for the failed click, then fails itself: it resolves null.
      expect(await page.evaluate(() => (window as any).svc.signup('cust-net', 'n@shop.test'))).toBeNull()
      const lines = svcLines(logs)
      expect(lines.length).toBe(2)
      expect(lines.every((l) => l.startsWith('error: [svc]'))).toBe(true)
      if (fail === '500') expect(lines[0]).toBe('error: [svc] click 500 Click tracking failed')
      expect(errors).toEqual([])
      await noCookie(context)
      await context.close()
    }
  })

  test('a page on an origin the program does not allow sees the 403, logs its message and gets no cookie', async () => {
    const context = await world.context()
    const { page, logs, errors } = await watchedPage(context)
    const failed = page.waitForEvent('console', (m) => m.text().startsWith('[svc] click'))
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/track/click'))
    await page.goto(landing('evil.shop.test'))
    // The answer is readable by the page (not a CORS network error): the server's own 403.
    expect((await answer).status()).toBe(403)
    await failed
    await noCookie(context)
    expect(svcLines(logs)).toEqual(['error: [svc] click 403 Origin not allowed for this program'])
    expect(errors).toEqual([])
    await context.close()
  })

  test('a page whose fetch throws at once still gets no exception, and signup resolves null', async () => {
    const context = await world.context()
    await context.addInitScript(() => {
      ;(window as any).fetch = () => {
        throw new Error('boom-fetch')
      }
    })
    const { page, logs, errors } = await watchedPage(context)
    const failed = page.waitForEvent('console', (m) => m.text().startsWith('[svc] click'))
    await page.goto(landing())
    await failed
    expect(await page.evaluate(() => (window as any).svc.signup('cust-throw', 't@shop.test'))).toBeNull()
    expect(svcLines(logs).every((l) => l.startsWith('error: [svc]'))).toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })

  test('debug mode logs the click with the [svc] prefix; without it the tracker is silent', async () => {
    for (const debug of [true, false]) {
      const context = await world.context()
      const { page, logs } = await watchedPage(context)
      await clicked(page, () => page.goto(landing('www.shop.test', debug ? '&debug' : '')))
      const id = await clickIdOf(page)
      expect(svcLines(logs)).toEqual(debug ? [`info: [svc] click ${id}`] : [])
      await context.close()
    }
  })

  test('a second copy of the script sends no second click', async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    let clicks = 0
    page.on('request', (r) => r.url().endsWith('/api/v1/track/click') && clicks++)
    await clicked(page, () => page.goto(landing()))
    await page.addScriptTag({ url: `${world.backend.url}/tracker.js` })
    await page.waitForTimeout(100)
    expect(clicks).toBe(1)
    await context.close()
  })

  test('a public suffix is never chosen as the cookie domain', async () => {
    const context = await world.context()
    const { page } = await watchedPage(context)
    // No DNS involved: Playwright answers the page, the script and the click itself (a page
    // on a public address may not load from 127.0.0.1: Chrome's private network access rules).
    const tracker = await buildTracker()
    await page.route('http://www.shop.co.uk/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<script src="http://svc.example/tracker.js" data-svc-program-id="1"></script>` }),
    )
    await page.route('http://svc.example/tracker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: tracker }))
    await page.route('**/api/v1/track/click', (route) =>
      route.fulfill({
        headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
        body: JSON.stringify({ success: true, click_id: 'uk0click', cookie_window_days: 5 }),
      }),
    )
    await clicked(page, () => page.goto('http://www.shop.co.uk/?aff=x'))
    const cookies = await context.cookies()
    expect(cookies.map((c) => [c.name, c.domain])).toEqual([['svc_click_id', '.shop.co.uk']])
    await context.close()
  })
})
