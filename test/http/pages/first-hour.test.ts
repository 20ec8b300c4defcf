// docs/decisions.md, "The first hour": the traps a founder and a partner met in their first hour,
// each through HTTP against the real server (no SMTP_URL, PUBLIC_BASE_URL on localhost).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, freePort, startApi } from '../../helpers.ts'
import { startSmtp } from '../../outbox/smtp.ts'
import { followLink, publicOrigin, signInAccount } from './sessions.ts'

let api: Api
let base: string
beforeAll(async () => {
  const port = await freePort()
  base = `http://localhost:${port}`
  api = await startApi({ env: { PORT: String(port), PUBLIC_BASE_URL: base, SVC_RATE_LIMIT_SCALE: '100' } })
})
afterAll(() => api.stop())

let n = 0
const unique = (prefix: string) => `${prefix}${++n}${Math.random().toString(36).slice(2, 6)}`
/** A request as a browser on PUBLIC_BASE_URL sends it (Host localhost:<port>). */
const onBase = (path: string, init: RequestInit = {}) =>
  fetch(`${api.url}${path}`, { redirect: 'manual', ...init, headers: { host: new URL(base).host, ...(init.headers ?? {}) } })

/** The stderr line of the email to `to` whose subject is `subject` (5 s at most). */
async function mailLine(to: string, subject: string): Promise<string | null> {
  for (let i = 0; i < 250; i++) {
    const line = api.announced.find((l) => l.startsWith(`svc: mail to ${to}: ${subject}`))
    if (line) return line
    await Bun.sleep(20)
  }
  return null
}

describe('without SMTP_URL nothing is lost', () => {
  test('a sign-in link is written to the server log, the page says so, and the email is recorded as logged', async () => {
    const owner = `${unique('solo')}@shop.test`
    await api.admin('POST', '/accounts', { email: owner })
    const form = await onBase('/sign-in')
    expect(await form.text()).toContain('This server has no SMTP_URL: the link is written to the server')
    const asked = await onBase('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: owner }).toString(),
    })
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain("the link was written to the server's log")
    const line = await mailLine(owner, 'Your sign-in link for your svc dashboard')
    expect(line).toMatch(new RegExp(`^svc: mail to ${owner}: Your sign-in link for your svc dashboard ${base}/sign-in/[A-Za-z0-9_-]{20,}$`))
    const link = line!.split(' ').at(-1)!
    const opened = await followLink(api, link)
    expect(opened.headers.get('location')).toBe('/dashboard')
    const logged = (await api.admin('GET', '/emails?status=logged')).body.data.filter((e: { to: string }) => e.to === owner)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ status: 'logged', kind: 'sign_in' })
  })

  test('MAIL_LOG=off records the email as logged and writes no line', async () => {
    const quiet = await startApi({ env: { MAIL_LOG: 'off' } })
    try {
      const owner = `${unique('quiet')}@shop.test`
      await quiet.admin('POST', '/accounts', { email: owner })
      const asked = await quiet.call('POST', '/sign-in', {
        body: `email=${encodeURIComponent(owner)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(asked.status).toBe(200)
      let logged: unknown[] = []
      for (let i = 0; i < 250 && logged.length === 0; i++, await Bun.sleep(20))
        logged = (await quiet.admin('GET', '/emails?status=logged')).body.data
      expect(logged).toHaveLength(1)
      expect(quiet.announced.filter((l) => l.startsWith('svc: mail to'))).toEqual([])
      // The pages say so: the link is nowhere to read.
      expect(asked.body).toContain('This server sends no email: ask the server&#39;s operator for a sign-in link.')
    } finally {
      await quiet.stop()
    }
  })
})

describe("a program's emails carry its name", () => {
  test("without MAIL_FROM, an email of a program is from the program's name, and its join page shows that name", async () => {
    const smtp = await startSmtp()
    const own = await startApi({ env: { SMTP_URL: smtp.url } })
    try {
      const fx = await own.setupProgram({ name: 'Acme Partners', partner_signup: 'approval' })
      expect(await (await fetch(`${own.url}/join/${fx.programId}`)).text()).toContain(
        '<header class="top"><a href="/sign-in">Acme Partners</a>',
      )
      await own.call('POST', `/join/${fx.programId}`, { body: { name: 'Ann', email: 'ann@p.test' } })
      const mail = (await smtp.waitFor(2)).find((m) => m.to.includes('ann@p.test'))!
      expect(mail.from).toBe('"Acme Partners" <svc@localhost>')
      // A name that reads like an address is not shown as one.
      const spoof = await own.setupProgram({ name: 'PayPal <security@paypal.com>', partner_signup: 'approval' })
      await own.call('POST', `/join/${spoof.programId}`, { body: { name: 'Bo', email: 'bo@p.test' } })
      const spoofed = (await smtp.waitFor(4)).find((m) => m.to.includes('bo@p.test'))!
      expect(spoofed.from).toBe('"PayPal  security paypal.com" <svc@localhost>')
    } finally {
      await own.stop()
      await smtp.stop()
    }
  })
})

describe('partners land on the partner sign-in', () => {
  test('/partner without a session goes to /partner/sign-in, and a partner signing out lands there', async () => {
    const signedOut = await onBase('/partner')
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get('location')).toBe('/partner/sign-in')
    const fx = await api.setupProgram()
    const link = (await api.admin('POST', `/programs/${fx.programId}/partners/${fx.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await onBase('/partner', { headers: { cookie } })
    const csrf = (await portal.text()).match(/name="_csrf" value="([^"]+)"/)![1]!
    const out = await onBase('/sign-out', {
      method: 'POST',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    })
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/partner/sign-in?signed_out=1')
    expect(await (await onBase('/partner/sign-in?signed_out=1')).text()).toContain('You are signed out.')
  })
})

describe("a program's site keeps its scheme and port", () => {
  test('domain http://localhost:3901: site_url kept, links on it, its origin accepted, readiness true', async () => {
    const fx = await api.setupProgram({ domain: 'http://localhost:3901' })
    const program = (await api.admin('GET', `/programs/${fx.programId}`)).body.data[0]
    expect(program).toMatchObject({ domain: 'localhost', site_url: 'http://localhost:3901' })
    const click = await api.call('POST', '/api/v1/track/click', {
      body: { affiliate_url: `http://localhost:3901/?aff=${fx.shortLink}` },
      headers: { origin: 'http://localhost:3901' },
    })
    expect(click.status).toBe(200)
    const elsewhere = await api.call('POST', '/api/v1/track/click', {
      body: { affiliate_url: `http://localhost:3901/?aff=${fx.shortLink}` },
      headers: { origin: 'http://localhost:3902' },
    })
    expect(elsewhere.status).toBe(403)
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { token: fx.apiKey })
    const check = readiness.body.data.checks.find((c: { id: string }) => c.id === 'browser_origins')
    expect(check.ok).toBe(true)
    expect(check.message).toContain('http://localhost:3901')
    const shop = await api.setupProgram({ domain: 'shop.example' })
    expect((await api.admin('GET', `/programs/${shop.programId}`)).body.data[0].site_url).toBe('https://shop.example')
    const bad = await api.admin('POST', '/programs', {
      account_id: fx.accountId,
      name: 'X',
      domain: 'ftp://x.test',
      commission_type: 'percent',
      commission_rate: 5,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('domain must be a host name such as shop.example, or a URL such as http://localhost:3901')
  })

  test("an open program's new partner: the log names the portal link, whose page shows the referral link on the site URL", async () => {
    const fx = await api.setupProgram({ domain: 'http://localhost:3901', partner_signup: 'open' })
    const email = `${unique('site')}@p.test`
    const short = unique('sia')
    await api.call('POST', `/join/${fx.programId}`, { body: { name: 'Sia', email, short_link: short } })
    // The stderr line names the email's first link: the one-time portal link.
    const line = await mailLine(email, 'Program')
    expect(line).toMatch(new RegExp(` approved your application ${base}/sign-in/[A-Za-z0-9_-]{20,}$`))
    // The link's page says how long it really works: 3 days for an approval's.
    const link = line!.split(' ').at(-1)!
    const until = new Date(api.clock.now() + 3 * 86_400_000).toISOString().slice(0, 16).replace('T', ' ')
    expect(await (await onBase(new URL(link).pathname)).text()).toContain(`The link works once, until ${until} UTC.`)
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await onBase('/partner', { headers: { cookie } })).text()
    expect(portal).toContain(`value="http://localhost:3901/?aff=${short}"`)
  })
})

describe('127.0.0.1 and localhost', () => {
  test('a page opened on 127.0.0.1 when PUBLIC_BASE_URL is localhost is sent there (303) before any form', async () => {
    const reply = await fetch(`${api.url}/sign-in?x=1`, { redirect: 'manual' })
    expect(new URL(api.url).hostname).toBe('127.0.0.1')
    expect(reply.status).toBe(303)
    expect(reply.headers.get('location')).toBe(`${base}/sign-in?x=1`)
    // The API is not a page: it answers wherever it is asked.
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200)
  })

  test('on another name the page shows a banner naming PUBLIC_BASE_URL and how to set it', async () => {
    const elsewhere = await startApi({ env: { PUBLIC_BASE_URL: 'https://svc.example' } })
    try {
      const reply = await fetch(`${elsewhere.url}/sign-in`, { redirect: 'manual' })
      expect(reply.status).toBe(200)
      const text = await reply.text()
      expect(text).toContain('https://svc.example')
      expect(text).toContain('set PUBLIC_BASE_URL')
    } finally {
      await elsewhere.stop()
    }
  })
})

describe('loopback addresses never count as fraud', () => {
  test('a partner and a customer both on 127.0.0.1: no same_ip, and 60 clicks an hour from it are no burst', async () => {
    const fx = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    const link = (await api.admin('POST', `/programs/${fx.programId}/partners/${fx.partnerId}/portal-link`)).body.data.url
    await followLink(api, link)
    let clickId = ''
    for (let i = 0; i < 60; i++) {
      const click = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${fx.shortLink}` } })
      clickId = click.body.click_id
    }
    await api.call('POST', '/api/v1/track/lead', { body: { click_id: clickId, customer_key: 'local' }, token: fx.apiKey })
    const sale = await api.call('POST', '/api/v1/track/sale', {
      body: { transaction_id: unique('t'), amount_cents: 5000, currency: 'USD', customer_key: 'local' },
      token: fx.apiKey,
    })
    const commission = (await api.admin('GET', `/programs/${fx.programId}/commissions`)).body.data.find(
      (c: { commission_id: number }) => c.commission_id === sale.body.data.commission.commission_id,
    )
    expect(commission).toMatchObject({ flags: [], status: 'pending' })
  })

  test('readiness warns, and stays ok, when the last clicks all came from one loopback address', async () => {
    const fx = await api.setupProgram()
    for (let i = 0; i < 12; i++)
      await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${fx.shortLink}` } })
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { token: fx.apiKey })
    const check = readiness.body.data.checks.find((c: { id: string }) => c.id === 'client_addresses')
    expect(check.ok).toBe(true)
    expect(check.message).toContain('every visitor has one address')
    expect(check.message).toContain('set TRUST_PROXY')
  })
})

describe('the forms of the first hour', () => {
  /** Signs the fixture's owner in; answers a form poster on PUBLIC_BASE_URL with the session's token. */
  async function owner(accountId: number) {
    const cookie = await signInAccount(api, accountId)
    const csrf = (await (await onBase('/dashboard', { headers: { cookie } })).text()).match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    return (path: string, fields: Record<string, string>) =>
      onBase(path, {
        method: 'POST',
        headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      })
  }

  test('a refused local webhook URL names WEBHOOKS_ALLOW_PRIVATE=true and keeps what was typed', async () => {
    const fx = await api.setupProgram({ partner_signup: 'approval' })
    const applied = await api.call('POST', `/join/${fx.programId}`, { body: { name: 'Gil', email: `${unique('gil')}@p.test` } })
    expect(applied.status).toBe(202)
    const post = await owner(fx.accountId)
    const reply = await post(`/dashboard/programs/${fx.programId}/webhooks`, {
      url: 'http://127.0.0.1:9999/hook',
      description: 'my local receiver',
      'event_sale.created': '1',
    })
    expect(reply.status).toBe(400)
    const page = await reply.text()
    expect(page).toContain('start svc with WEBHOOKS_ALLOW_PRIVATE=true')
    expect(page).toContain('value="http://127.0.0.1:9999/hook"')
    expect(page).toContain('value="my local receiver"')
    expect(page).toMatch(/name="event_sale.created" value="1" checked/)
    // The GET page's layout: its title, and its tabs with the count of the application that waits.
    expect(page).toContain('<title>Webhooks · ')
    expect(page).toMatch(/<nav class="tabs">.*data-pending="1".*aria-current="page">Webhooks<\/a>/s)
  })

  test('a sale recorded by hand may name a partner: a customer without one is credited to them, source manual', async () => {
    const fx = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    const post = await owner(fx.accountId)
    const done = await post(`/dashboard/programs/${fx.programId}/sales`, {
      customer_key: 'walk-in',
      amount: '80.00',
      currency: 'USD',
      transaction_id: 'manual-1',
      partner_id: String(fx.partnerId),
    })
    expect(done.status).toBe(303)
    const sale = (await api.admin('GET', `/programs/${fx.programId}/sales`)).body.data.find(
      (s: { transaction_id: string }) => s.transaction_id === 'manual-1',
    )
    expect(sale.attribution).toMatchObject({ rule: 'manual', source: 'manual', partner_id: fx.partnerId })
    const commissions = (await api.admin('GET', `/programs/${fx.programId}/commissions`)).body.data
    expect(commissions.find((c: { sale_id: number }) => c.sale_id === sale.sale_id)).toMatchObject({
      partner_id: fx.partnerId,
      amount_cents: 800,
    })
    // A suspended partner cannot be named.
    await api.admin('POST', `/programs/${fx.programId}/partners/${fx.partnerId}/suspend`)
    const refused = await post(`/dashboard/programs/${fx.programId}/sales`, {
      customer_key: 'other',
      amount: '5',
      currency: 'USD',
      partner_id: String(fx.partnerId),
    })
    expect(refused.headers.get('location')).toContain('error=sale_partner')
  })

  test("the payout details form's answer stands beside the form it answers", async () => {
    const fx = await api.setupProgram()
    const link = (await api.admin('POST', `/programs/${fx.programId}/partners/${fx.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await onBase('/partner', { headers: { cookie } })).text()
    const csrf = portal.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const saved = await onBase('/partner/payout-details', {
      method: 'POST',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, payout_method: 'paypal', payout_details: 'ada@paypal.test' }).toString(),
    })
    expect(saved.headers.get('location')).toBe('/partner?done=payout_details_saved#payout-details')
    const after = await (await onBase(saved.headers.get('location')!, { headers: { cookie } })).text()
    const section = after.slice(after.indexOf('id="payout-details"'))
    expect(section.slice(0, section.indexOf('</form>'))).toContain('role="status"')
  })
})
