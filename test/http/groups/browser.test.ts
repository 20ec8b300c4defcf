// The group forms in real Chromium (docs/decisions.md, Groups), at 1280 and 390 px: create a group,
// change it, move a partner into it and book a bonus, with no console error, no request to
// another host and no sideways scrolling on a phone; screenshots in test-artifacts/groups.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { atPublicUrl, type Api, type Fixture } from '../../helpers.ts'
import { describeBrowser, launch } from '../../tracker/browser.ts'
import { type Kit, trackingSetup } from '../track/kit.ts'

const SHOTS = join(import.meta.dir, '../../../test-artifacts/groups')

describeBrowser('the group forms', () => {
  let api: Api
  let k: Kit
  let f: Fixture
  let browser: Awaited<ReturnType<typeof launch>>
  let context: BrowserContext
  const foreign: string[] = []
  const errors: string[] = []

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ;({ api, k } = await trackingSetup(undefined, await atPublicUrl()))
    f = await api.setupProgram({ name: 'Shop', commission_type: 'percent', commission_rate: 20, partner_signup: 'approval' })
    const bob = await k.partnerLink(f, `bob${Date.now()}`)
    for (let i = 0; i < 4; i++) await k.clickId(i % 2 ? f : bob)
    browser = await launch()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.on('request', (r) => {
      const url = new URL(r.url())
      if (url.protocol !== 'data:' && url.host !== new URL(api.url).host) foreign.push(r.url())
    })
    const link = (await api.admin('POST', `/accounts/${f.accountId}/dashboard-link`)).body.data.url
    const page = await context.newPage()
    await page.goto(api.url + new URL(link).pathname)
    await page.click('button:text("Sign in")')
    await page.close()
    // A browser start and a sign-in: on CI's two cores, beside the other suite, more than the 30 s of a test.
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  async function open(path: string, width: number): Promise<Page> {
    const page = await context.newPage()
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.setViewportSize({ width, height: 900 })
    await page.goto(`${api.url}/dashboard/programs/${f.programId}${path}`)
    return page
  }
  /** No sideways scrolling: the page is no wider than the window. */
  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  const shot = (page: Page, name: string, width: number) => page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })

  for (const width of [1280, 390]) {
    test(`create and change a group at ${width} px`, async () => {
      const name = `Agencies ${width}`
      const page = await open('/groups', width)
      expect(await fits(page)).toBe(true)
      await shot(page, 'groups-before', width)
      const form = page.locator('#create-group form')
      await form.locator('input[name=name]').fill(name)
      await form.locator('input[name=commission_rate]').fill('30')
      await form.locator('input[name=holding_period_days]').fill('14')
      await form.locator('input[name=discount_coupon_id]').fill('AGENCY20')
      await form.locator('input[name=discount_description]').fill('20% off the first year')
      await form.locator('select[name=partner_signup]').selectOption('open')
      await form.locator('button:text("Create group")').click()
      expect(await page.textContent('[role=status]')).toBe('Group created.')
      const group = (await api.admin('GET', `/programs/${f.programId}/groups`)).body.data.find((g: { name: string }) => g.name === name)
      expect(group).toMatchObject({
        commission_rate: 30,
        holding_period_days: 14,
        partner_signup: 'open',
        discount: { coupon_id: 'AGENCY20' },
      })
      const card = page.locator(`[data-group="${group.group_id}"]`)
      expect(await card.textContent()).toContain('30% of each referred customer')
      expect(await card.locator('input.url').inputValue()).toBe(`${api.url}/join/${f.programId}/${group.group_id}`)
      await card.locator('summary').click()
      await card.locator('input[name=commission_rate]').fill('35')
      await shot(page, 'groups-change', width)
      expect(await fits(page)).toBe(true)
      await card.locator('button:text("Save group")').click()
      expect(await page.textContent('[role=status]')).toBe('Group saved: sales from now on are paid by its new terms.')
      expect(
        (await api.admin('GET', `/programs/${f.programId}/groups`)).body.data.find((g: { name: string }) => g.name === name),
      ).toMatchObject({
        commission_rate: 35,
      })
      // Its join page, as an applicant sees it.
      const join = await context.newPage()
      await join.setViewportSize({ width, height: 900 })
      await join.goto(`${api.url}/join/${f.programId}/${group.group_id}`)
      expect(await join.textContent('main')).toContain('20% off the first year')
      expect(await fits(join)).toBe(true)
      await join.screenshot({ path: join_(`join-group-${width}.png`), fullPage: true })
      await join.close()
      await page.close()
    })
  }

  test('move a partner into a group and book a bonus from the partner page, at 390 px', async () => {
    const group = (await api.admin('GET', `/programs/${f.programId}/groups`)).body.data[0]
    const page = await open(`/partners/${f.partnerId}`, 390)
    await page.selectOption('select[name=group_id]', String(group.group_id))
    await page.click('button:text("Save")')
    expect(await page.textContent('[role=status]')).toContain('saved')
    expect(await page.textContent('main')).toContain('35% of each referred customer')
    await page.fill('#bonus input[name=amount]', '25.00')
    await page.selectOption('#bonus select[name=currency]', 'EUR')
    await page.fill('#bonus input[name=description]', 'Launch week top referrer')
    await page.click('button:text("Book bonus")')
    expect(await page.textContent('[role=status]')).toBe(
      'Bonus booked: it is paid with the commissions once the holding period has passed.',
    )
    expect(await fits(page)).toBe(true)
    await shot(page, 'partner-group-bonus', 390)
    const ledger = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    expect(ledger[0]).toMatchObject({ kind: 'bonus', amount_cents: 2500, currency: 'EUR', status: 'pending' })
    const rows = await open(`/partners?group_id=${group.group_id}`, 1280)
    expect(await rows.locator(`tr[data-partner="${f.partnerId}"] .group`).textContent()).toBe(group.name)
    await shot(rows, 'partners-by-group', 1280)
    for (const width of [1280, 390]) {
      const overview = await open('', width)
      expect(await overview.locator('[data-group-charts] svg[role=img]').count()).toBeGreaterThanOrEqual(1)
      expect(await overview.locator('[data-group-charts] figure').count()).toBeGreaterThanOrEqual(2)
      expect(await fits(overview)).toBe(true)
      await shot(overview, 'overview-groups', width)
    }
    expect(errors).toEqual([])
    expect(foreign).toEqual([])
  })
})

const join_ = (name: string) => join(SHOTS, name)
