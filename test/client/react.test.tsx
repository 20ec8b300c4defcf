// The React provider: inert during server rendering, and hydrating without mismatch in a
// real browser (happy-dom is not installed, so hydration runs in Chromium).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { renderToString } from 'react-dom/server'
import type { Browser } from 'playwright-core'
import { useSvc } from '../../src/client/react.tsx'
import { buildTracker } from '../../tracker/build.ts'
import { describeBrowser, launch, watchedPage } from '../tracker/browser.ts'
import { App, SVC_URL } from './fixtures/app.tsx'

test('server rendering outputs only the children and useSvc() is null', () => {
  let seen: unknown = 'unset'
  function Probe() {
    seen = useSvc()
    return null
  }
  expect(renderToString(<App />)).toBe('<p id="status">not loaded</p>')
  renderToString(<Probe />)
  expect(seen).toBeNull()
})

describeBrowser('hydration in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(() => browser?.close())

  test('hydrates without mismatch, loads the tracker once and then provides its API', async () => {
    const built = await Bun.build({
      entrypoints: [join(import.meta.dir, 'fixtures', 'hydrate.tsx')],
      target: 'browser',
      define: { 'process.env.NODE_ENV': '"development"' }, // development React reports mismatches
    })
    if (!built.success) throw new AggregateError(built.logs)
    const bundle = await built.outputs[0]!.text()
    const html = `<!doctype html><html><body><div id="root">${renderToString(<App />)}</div><script src="/app.js"></script></body></html>`
    const tracker = await buildTracker()

    const context = await browser.newContext()
    const { page, logs, errors } = await watchedPage(context)
    let trackerLoads = 0
    await page.route('http://shop.example/**', (r) =>
      r.request().url().endsWith('/app.js')
        ? r.fulfill({ contentType: 'text/javascript', body: bundle })
        : r.fulfill({ contentType: 'text/html', body: html }),
    )
    await page.route(`${SVC_URL}/tracker.js`, (r) => (trackerLoads++, r.fulfill({ contentType: 'text/javascript', body: tracker })))
    await page.goto('http://shop.example/')
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('loaded'))
    expect(await page.textContent('#status')).toBe('loaded:none')
    expect(trackerLoads).toBe(1)
    expect(await page.locator(`script[src="${SVC_URL}/tracker.js"]`).count()).toBe(1)
    expect(await page.getAttribute(`script[src="${SVC_URL}/tracker.js"]`, 'data-svc-program-id')).toBe('7')
    // consentRequired reaches the tag: the tracker waits for svc.consent(true).
    expect(await page.getAttribute(`script[src="${SVC_URL}/tracker.js"]`, 'data-svc-consent')).toBe('required')
    expect(logs.filter((l) => l.startsWith('error'))).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
