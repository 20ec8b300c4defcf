// The Partners page and a partner's page on a phone (390 px) in real Chromium: each partner is a
// card as on the Activity and Payment events pages, its commission per currency a line of its own
// whose amounts never break in two, nothing scrolls sideways, and the sort links stay in reach.
// Screenshots at 1280 and 390 px go to test-artifacts/partners for review.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describeBrowser, launch } from '../../tracker/browser.ts'
import type { Api, Fixture } from '../../helpers.ts'
import { type Kit, trackingSetup } from '../track/kit.ts'
import { signInAccount } from './sessions.ts'

const SHOTS = join(import.meta.dir, '../../../test-artifacts/partners')

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
}

/** How the page lays out the partners' commissions: whether anything scrolls sideways or an amount breaks. */
const layout = (page: Page) =>
  page.evaluate(() => {
    const lines = [...document.querySelectorAll<HTMLElement>('[data-status-currency]')]
    const panels = [...document.querySelectorAll<HTMLElement>('main .panel')]
    return {
      sideways: document.documentElement.scrollWidth > window.innerWidth || panels.some((p) => p.scrollWidth > p.clientWidth),
      lineWidths: lines.map((l) => Math.round(l.getBoundingClientRect().width)),
      // Each "USD 12.00 due" on one line: the rectangles of its text (one per line box it is on) share their top.
      broken: lines.flatMap((l) => {
        const out: string[] = []
        const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of (node.textContent ?? '').matchAll(/[A-Z]{3}\s[\d,.]+\s(pending|due|in payout|paid|held for review)/g)) {
            const range = document.createRange()
            range.setStart(node, m.index)
            range.setEnd(node, m.index + m[0].length)
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size !== 1) out.push(m[0])
          }
        }
        return out
      }),
      rows: [...document.querySelectorAll<HTMLElement>('tr[data-partner]')].map((r) => getComputedStyle(r).display),
    }
  })

describeBrowser('partners on a phone', () => {
  let api: Api
  let k: Kit
  let f: Fixture
  let browser: Awaited<ReturnType<typeof launch>>
  let page: Page

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ;({ api, k } = await trackingSetup())
    f = await api.setupProgram({ name: 'Shop', holding_period_days: 0, currencies: ['USD', 'EUR', 'JPY'] })
    // One partner with a long name and commissions in three currencies, one of them held for review.
    const long = await k.partnerLink(f, 'margaret-hamilton-reviews-and-unboxings')
    for (const [currency, cents] of [
      ['USD', 1_234_500],
      ['EUR', 98_700],
      ['JPY', 1_500_000],
    ] as const) {
      const key = `long-${currency}`
      await k.customer(long, key)
      expect((await k.sale(long, { customer_key: key, transaction_id: `t-${key}`, amount_cents: cents, currency })).status).toBe(200)
    }
    const ad = await k.click(long, { affiliate_url: `https://shop.test/pricing?aff=${long.shortLink}&gclid=ad-1` })
    await k.lead(long, { click_id: ad.body.click_id, customer_key: 'ad-customer', email: 'deal@mailinator.com' })
    expect((await k.sale(long, { customer_key: 'ad-customer', transaction_id: 't-ad', amount_cents: 8000 })).status).toBe(200)
    await k.customer(f, 'plain')
    expect((await k.sale(f, { customer_key: 'plain', transaction_id: 't-plain', amount_cents: 5000 })).status).toBe(200)
    f = { ...f, partnerId: long.partnerId }

    browser = await launch()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const [name, value] = (await signInAccount(api, f.accountId)).split('=') as [string, string]
    await context.addCookies([{ name, value, url: api.url }])
    page = await context.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  test('at 390 px each partner is a card whose commission lines span it, no amount broken, nothing sideways; at 1280 a table', async () => {
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/partners`)
    expect(await page.textContent(`[data-partner="${f.partnerId}"] [data-status-currency=JPY]`)).toContain('JPY 150,000 due')
    await shoot(page, 'partners')
    await page.setViewportSize({ width: 1280, height: 900 })
    const wide = await layout(page)
    expect(wide.rows).toEqual(['table-row', 'table-row'])
    expect(wide.broken).toEqual([])
    await page.setViewportSize({ width: 390, height: 900 })
    const narrow = await layout(page)
    expect(narrow.sideways).toBe(false)
    expect(narrow.rows).toEqual(['block', 'block'])
    expect(narrow.broken).toEqual([])
    // A currency's line has the card's width, not a third of a table's.
    for (const width of narrow.lineWidths) expect(width).toBeGreaterThan(300)
    // The sort links stay in reach on a phone; what the phone leaves out stays out of the cards.
    expect(await page.isVisible('th a:text("Sales")')).toBe(true)
    expect(await page.isVisible(`[data-partner="${f.partnerId}"] [data-stat=leads]`)).toBe(false)
    await page.locator('table.partners').screenshot({ path: join(SHOTS, 'partners-cards-390.png') })
    // At 1280 a status badge keeps its word whole.
    await page.setViewportSize({ width: 1280, height: 900 })
    expect((await page.locator(`[data-partner="${f.partnerId}"] .badge.status-active >> nth=-1`).boundingBox())!.height).toBeLessThan(30)
  })

  test("at 390 px a partner's page shows each currency's commission on its own line, no amount broken", async () => {
    await page.goto(`${api.url}/dashboard/programs/${f.programId}/partners/${f.partnerId}`)
    await shoot(page, 'partner')
    await page.setViewportSize({ width: 390, height: 900 })
    await page.locator('p.commission').screenshot({ path: join(SHOTS, 'partner-commission-390.png') })
    const narrow = await layout(page)
    expect(narrow.sideways).toBe(false)
    expect(narrow.broken).toEqual([])
    expect(narrow.lineWidths).toHaveLength(3)
  })
})
