import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { trackingSetup, type Kit } from '../track/kit.ts'
import { openPage, signInAccount } from './sessions.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const open = (path: string, cookie: string, form?: Record<string, string>) => openPage(api, path, cookie, form)

async function signIn(accountId: number): Promise<{ cookie: string; csrf: string }> {
  const cookie = await signInAccount(api, accountId)
  const page = await open('/dashboard', cookie)
  return { cookie, csrf: page.text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1] }
}

describe('dashboard pages', () => {
  test('names are escaped: a partner called <script> is shown as text', async () => {
    const f = await api.setupProgram()
    await api.admin('POST', `/programs/${f.programId}/partners`, { name: '<script>alert(1)</script>' })
    const { cookie } = await signIn(f.accountId)
    const page = await open(`/dashboard/programs/${f.programId}/partners`, cookie)
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(page.text).not.toContain('<script>alert(1)')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
  })

  test('a taken or malformed short link answers the form with its notice and creates nothing', async () => {
    const f = await api.setupProgram()
    const { cookie, csrf } = await signIn(f.accountId)
    const path = `/dashboard/programs/${f.programId}/links`
    const taken = await open(path, cookie, { _csrf: csrf, partner_id: String(f.partnerId), short_link: f.shortLink })
    expect(taken.headers.get('location')).toBe(`/dashboard/programs/${f.programId}/partners?error=short_link_taken`)
    const bad = await open(path, cookie, { _csrf: csrf, partner_id: String(f.partnerId), short_link: 'no spaces' })
    expect(bad.headers.get('location')).toContain('error=short_link_invalid')
    const other = await api.setupProgram()
    const foreignPartner = await open(path, cookie, { _csrf: csrf, partner_id: String(other.partnerId), short_link: 'mine-now' })
    expect(foreignPartner.headers.get('location')).toContain('error=no_partner')
    expect((await api.admin('GET', `/programs/${f.programId}/links`)).body.data).toHaveLength(1)
    const notice = await open(taken.headers.get('location')!, cookie)
    expect(notice.text).toContain('already taken')
  })

  test("another account's link, program or payout cannot be changed through the forms", async () => {
    const mine = await api.setupProgram()
    const theirs = await api.setupProgram()
    const { cookie, csrf } = await signIn(mine.accountId)
    const off = await open(`/dashboard/programs/${theirs.programId}/links/${theirs.linkId}/active`, cookie, {
      _csrf: csrf,
      active: 'false',
    })
    expect(off.status).toBe(404)
    const crossed = await open(`/dashboard/programs/${mine.programId}/links/${theirs.linkId}/active`, cookie, {
      _csrf: csrf,
      active: 'false',
    })
    expect(crossed.headers.get('location')).toContain('error=link_missing')
    expect((await k.click(theirs)).status).toBe(200)
    expect((await open(`/dashboard/programs/${theirs.programId}/payouts.csv`, cookie)).status).toBe(404)
  })

  test('the settings forms change the program and regenerate the key (the old one answers 401)', async () => {
    const f = await api.setupProgram()
    const { cookie, csrf } = await signIn(f.accountId)
    const base = `/dashboard/programs/${f.programId}/settings`
    const saved = await open(`${base}/origins`, cookie, { _csrf: csrf, allowed_origins: 'http://localhost:5173\nhttps://app.shop.test/' })
    expect(saved.headers.get('location')).toContain('done=origins_saved')
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0].allowed_origins).toEqual([
      'http://localhost:5173',
      'https://app.shop.test',
    ])
    expect((await open(`${base}/origins`, cookie, { _csrf: csrf, allowed_origins: 'not an origin' })).headers.get('location')).toContain(
      'error=origins_invalid',
    )
    const regenerated = await open(`${base}/api-key`, cookie, { _csrf: csrf })
    expect(regenerated.status).toBe(200)
    const key = regenerated.text.match(/id="new-key" value="(svc_live_[^"]+)"/)![1]
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })).status).toBe(401)
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: key })).status).toBe(200)
    const stripe = await open(`${base}/stripe`, cookie, { _csrf: csrf, stripe_webhook_secret: 'whsec_test_123' })
    expect(stripe.headers.get('location')).toContain('done=stripe_saved')
    const page = await open(base, cookie)
    expect(page.text).toContain(`/api/v1/webhooks/stripe/${f.programId}`)
    expect(page.text).toContain(`data-svc-program-id=&quot;${f.programId}&quot;`)
    expect(page.text).not.toContain('whsec_test_123')
    const rotation = await open(`${base}/api-key/rotation`, cookie, { _csrf: csrf, rotate_by: '2099-01-01' })
    expect(rotation.headers.get('location')).toContain('done=rotation_marked')
  })

  test('Settings makes a track key (shown once) that only tracks, and deletes it', async () => {
    const f = await api.setupProgram()
    const { cookie, csrf } = await signIn(f.accountId)
    const base = `/dashboard/programs/${f.programId}/settings`
    const made = await open(`${base}/keys`, cookie, { _csrf: csrf, name: 'web server' })
    expect(made.status).toBe(200)
    const key = made.text.match(/id="new-track-key" value="(svc_track_[^"]+)"/)![1]!
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: key })).status).toBe(200)
    expect((await api.call('GET', '/api/v1/cli/webhooks', { token: key })).body.error.message).toBe('This key can only track')
    const shown = await open(base, cookie)
    expect(shown.text).toContain('web server')
    expect(shown.text).not.toContain(key)
    const keyId = shown.text.match(/data-key="(\d+)"/)![1]
    expect((await open(`${base}/keys`, cookie, { _csrf: csrf, name: 'bad\nname' })).headers.get('location')).toContain(
      'error=track_key_name',
    )
    const deleted = await open(`${base}/keys/${keyId}/delete`, cookie, { _csrf: csrf })
    expect(deleted.headers.get('location')).toContain('done=track_key_deleted')
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: key })).status).toBe(401)
    // The manage key is not a track key: the delete form does not reach it.
    const manageId = (await api.admin('GET', `/programs/${f.programId}/keys`)).body.data[0].key_id
    expect((await open(`${base}/keys/${manageId}/delete`, cookie, { _csrf: csrf })).headers.get('location')).toContain(
      'error=track_key_missing',
    )
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })).status).toBe(200)
  })

  test('the rollups the pages read agree with the rows, provisional leads and refunds included', async () => {
    const f = await api.setupProgram({ lead_auth: 'server_required' })
    const id = await k.clickId(f)
    // A browser-mode lead is provisional (not counted) until the server settles it.
    expect((await k.lead(null, { click_id: id, customer_key: 'p1', additional_data: {} }, { origin: 'https://shop.test' })).status).toBe(
      200,
    )
    expect((await k.lead(f, { click_id: id, customer_key: 'p1' })).status).toBe(200)
    await k.customer(f, 'p2')
    expect((await k.sale(f, { customer_key: 'p2', transaction_id: `t-${f.programId}-1`, currency: 'EUR' })).status).toBe(200)
    expect((await k.sale(f, { customer_key: 'p2', transaction_id: `t-${f.programId}-2` })).status).toBe(200)
    expect((await k.refund(f, { transaction_id: `t-${f.programId}-2` })).status).toBe(200)
    const db = api.server.deps.database.client
    const one = (sql: string) => (db.prepare(sql).get(f.programId) as { n: number }).n
    const rolled = db
      .prepare(
        'SELECT sum(clicks) AS clicks, sum(leads) AS leads, sum(customers) AS customers, sum(sales) AS sales FROM daily_counts WHERE program_id = ?',
      )
      .get(f.programId)
    expect(rolled).toEqual({
      clicks: one('SELECT count(*) AS n FROM clicks WHERE program_id = ?'),
      leads: one("SELECT count(*) AS n FROM customers WHERE program_id = ? AND status <> 'provisional'"),
      customers: one("SELECT count(*) AS n FROM customers WHERE program_id = ? AND status = 'converted'"),
      sales: one('SELECT count(*) AS n FROM sales WHERE program_id = ?'),
    })
    const money = db
      .prepare(
        'SELECT currency, sum(revenue_cents) AS revenue, sum(refunded_cents) AS refunded, sum(commission_cents) AS commission FROM daily_money WHERE program_id = ? GROUP BY currency ORDER BY currency',
      )
      .all(f.programId)
    const raw = db
      .prepare(`SELECT s.currency, sum(s.amount_cents) AS revenue, sum(CASE WHEN s.status <> 'recorded' THEN s.amount_cents ELSE 0 END) AS refunded,
      (SELECT coalesce(sum(amount_cents), 0) FROM commissions c WHERE c.program_id = s.program_id AND c.currency = s.currency) AS commission
      FROM sales s WHERE s.program_id = ? GROUP BY s.currency ORDER BY s.currency`)
      .all(f.programId)
    expect(money).toEqual(raw)
  })
})
