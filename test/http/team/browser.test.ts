// The Team and Activity pages in real Chromium (docs/decisions.md, Teams and the audit log): the
// owner invites a viewer from the Team page, the viewer signs in with the logged link and reads
// the Activity page, filters it, and sees no form; no console error, no request to another host;
// screenshots at 1280 and 390 px for review (test-artifacts/dashboard/).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Api, atPublicUrl, type Fixture } from '../../helpers.ts'
import { describeBrowser, launch } from '../../tracker/browser.ts'
import { trackingSetup } from '../track/kit.ts'
import { linkOf, mailLine } from './kit.ts'

const SHOTS = join(import.meta.dir, '../../../test-artifacts/dashboard')

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

describeBrowser('team and activity', () => {
  let api: Api
  let f: Fixture
  let browser: Browser
  const foreign: string[] = []
  const errors: string[] = []

  async function context(): Promise<BrowserContext> {
    const made = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    made.on('request', (r) => {
      if (new URL(r.url()).host !== new URL(api.url).host) foreign.push(r.url())
    })
    return made
  }
  async function pageOf(made: BrowserContext): Promise<Page> {
    const page = await made.newPage()
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(String(e)))
    return page
  }
  const onServer = (url: string) => api.url + new URL(url).pathname

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    ;({ api } = await trackingSetup(undefined, await atPublicUrl()))
    f = await api.setupProgram({ name: 'Shop' })
    // Some history for the Activity page.
    await api.admin('PATCH', `/programs/${f.programId}`, { name: 'Ada’s Shop', holding_period_days: 14 })
    await api.admin('POST', `/programs/${f.programId}/keys`, { scope: 'track', name: 'web server' })
    await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/suspend`)
    await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/unsuspend`)
    await api.admin('POST', `/accounts/${f.accountId}/members`, { email: 'cofounder@shop.test', role: 'admin' })
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
    await api?.stop()
  })

  test('the owner invites a viewer; the viewer reads and filters the Activity page, with no form', async () => {
    const owner = await pageOf(await context())
    await owner.goto(onServer((await api.admin('POST', `/accounts/${f.accountId}/dashboard-link`)).body.data.url))
    await owner.click('button:text("Sign in")')
    await owner.click('a:text("Team: invite an admin or a viewer")')
    expect(new URL(owner.url()).pathname).toBe('/dashboard/team')
    await owner.fill('input[name="email"]', 'accountant@books.test')
    await owner.selectOption('#invite select[name="role"]', 'viewer')
    await owner.click('button:text("Invite")')
    expect(await owner.textContent('[role="status"]')).toContain('Invited')
    expect(await owner.textContent('tbody')).toContain('accountant@books.test')
    await shoot(owner, 'team')

    const viewer = await pageOf(await context())
    await viewer.goto(onServer(linkOf(await mailLine(api, 'accountant@books.test', 'You were added to'))))
    await viewer.click('button:text("Sign in")')
    expect(new URL(viewer.url()).pathname).toBe('/dashboard')
    await viewer.goto(`${api.url}/dashboard/programs/${f.programId}/activity`)
    const rows = await viewer.locator('tbody tr').count()
    expect(rows).toBeGreaterThanOrEqual(6)
    expect(await viewer.textContent('tbody')).toContain('member.add')
    // A viewer changes nothing: the only post form is the top bar's Sign out.
    expect(await viewer.locator('form[method="post"]').count()).toBe(1)
    expect(await viewer.locator('a:text("Team")').count()).toBe(0)
    await shoot(viewer, 'activity')
    await viewer.fill('input[name="actor"]', 'OPERATOR')
    await viewer.selectOption('select[name="action"]', 'partner.')
    await viewer.click('button:text("Filter")')
    expect(await viewer.locator('tbody tr').count()).toBe(2)
    expect(new URL(viewer.url()).searchParams.get('action')).toBe('partner.')
    // Every other page as a viewer sees it (for review): the figures, no form.
    for (const tab of ['partners', 'settings', 'payouts']) {
      await viewer.goto(`${api.url}/dashboard/programs/${f.programId}/${tab}`)
      expect(await viewer.locator('form[method="post"]').count()).toBe(1)
      await shoot(viewer, `viewer-${tab}`)
    }
    // The Team page is the owner's.
    const refused = await viewer.goto(`${api.url}/dashboard/team`)
    expect(refused!.status()).toBe(403)
    expect(errors.filter((e) => !e.includes('403'))).toEqual([])
    expect(foreign).toEqual([])
  })
})
