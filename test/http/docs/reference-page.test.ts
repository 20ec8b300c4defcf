// GET /docs in a real browser: the reference renders every operation from this server alone
// (no request to another host, no console error), and "Try it" calls this server.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { startApi, type Api } from '../../helpers.ts'
import { describeBrowser, launch, watchedPage } from '../../tracker/browser.ts'

describeBrowser('/docs in Chromium', () => {
  let api: Api
  let browser: Browser
  beforeAll(async () => {
    api = await startApi()
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  test('renders every operation with its credential, examples and responses, requesting nothing from another host', async () => {
    const context = await browser.newContext()
    const { page, logs, errors } = await watchedPage(context)
    const requested: string[] = []
    page.on('request', (r) => requested.push(r.url()))
    await page.goto(`${api.url}/docs`)
    await page.waitForLoadState('networkidle')

    const doc = (await api.call('GET', '/openapi.json')).body
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    )
    expect(ids.length).toBeGreaterThanOrEqual(36)
    for (const id of ids) {
      expect(await page.locator(`nav a[href="#${id}"]`).count(), id).toBe(1)
      expect(await page.locator(`section#${id} h4:text-is("Responses")`).count(), id).toBe(1)
    }
    const sale = page.locator('section#trackSale')
    expect(await sale.textContent()).toContain('Credential: program API key')
    expect(await sale.locator('pre.example').textContent()).toContain('"amount_cents": 4900')
    expect(await sale.locator('summary').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('409'), expect.stringContaining('429')]),
    )
    expect(await page.locator('#api_key_rotation_required').count()).toBe(1)

    expect(requested.filter((url) => !url.startsWith(api.url))).toEqual([])
    expect(errors).toEqual([])
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([])
    await context.close()
  }, 30_000)

  test('"Try it" sends the request to this server with the token typed on the page', async () => {
    const f = await api.setupProgram()
    const context = await browser.newContext()
    const { page, errors } = await watchedPage(context)
    await page.goto(`${api.url}/docs#getReadiness`)
    await page.fill('#token', f.apiKey)
    const section = page.locator('section#getReadiness')
    await section.locator('details.try summary').click()
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/programs/me/readiness'))
    await section.locator('details.try button').click()
    expect((await answered).status()).toBe(200)
    await page.waitForFunction(() => document.querySelector('#getReadiness .out')?.textContent?.startsWith('200'))
    expect(await section.locator('.out').textContent()).toContain(`"program_id": ${f.programId}`)
    expect(errors).toEqual([])
    await context.close()
  }, 30_000)
})
