import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, minutes, type Api } from '../../helpers.ts'
import { login, startCliApi } from '../cli/fixtures.ts'
import { publicOrigin, signInAccount, followLink } from './sessions.ts'

let api: Api
beforeAll(async () => {
  api = await startCliApi()
})
afterAll(() => api.stop())

/** A request to the server that never follows redirects: the tests read the 303s themselves. */
async function open(
  path: string,
  options: { cookie?: string; method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const response = await fetch(api.url + path, {
    method: options.method ?? (options.form ? 'POST' : 'GET'),
    redirect: 'manual',
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    body: options.form ? new URLSearchParams(options.form).toString() : undefined,
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** The path of an absolute link, which is on PUBLIC_BASE_URL rather than the test server's address. */
const pathOf = (url: string) => new URL(url).pathname

async function dashboardLink(accountId: number) {
  const reply = await api.admin('POST', `/accounts/${accountId}/dashboard-link`)
  expect(reply.status).toBe(200)
  return reply.body.data as { url: string; expires_at: string }
}

const signIn = (accountId: number) => signInAccount(api, accountId)
const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0] as string

const csrfOf = (html: string) => html.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]

describe('sign-in links', () => {
  test('the operator link answers an absolute url on PUBLIC_BASE_URL valid 10 minutes; its Sign in button sets svc_session and redirects 303 to /dashboard', async () => {
    const { accountId } = await login(api)
    const link = await dashboardLink(accountId)
    const base = api.server.deps.config.publicBaseUrl
    expect(link.url.startsWith(`${base}/sign-in/`)).toBe(true)
    expect(Date.parse(link.expires_at) - api.clock.now()).toBe(minutes(10))
    const shown = await open(pathOf(link.url))
    expect(shown.status).toBe(200)
    expect(shown.headers.get('set-cookie')).toBeNull()
    expect(shown.text).toContain('<button>Sign in</button>')
    const opened = await followLink(api, link.url)
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe('/dashboard')
    const cookie = opened.headers.get('set-cookie')!
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/)
    const page = await open('/dashboard', { cookie: cookie.split(';')[0] })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('Your programs')
  })

  test('a used link signs nobody in a second time', async () => {
    const { accountId } = await login(api)
    const url = (await dashboardLink(accountId)).url
    expect((await followLink(api, url)).status).toBe(303)
    const again = await followLink(api, url)
    expect(again.status).toBe(410)
    expect(again.headers.get('set-cookie')).toBeNull()
    expect(await again.text()).toContain('already used or has expired')
    const shown = await open(pathOf(url))
    expect(shown.status).toBe(410)
    expect(shown.text).toContain('already used or has expired')
  })

  test('a link older than 10 minutes signs nobody in', async () => {
    const { accountId } = await login(api)
    const url = (await dashboardLink(accountId)).url
    api.clock.advance(minutes(10) + 1000)
    const opened = await followLink(api, url)
    expect(opened.status).toBe(410)
    expect(opened.headers.get('set-cookie')).toBeNull()
  })

  test('an unknown link, an unknown account and a missing admin token are refused', async () => {
    expect((await open('/sign-in/not-a-real-link-token-0123456789')).status).toBe(410)
    expect((await open('/sign-in/not-a-real-link-token-0123456789', { form: {}, headers: { origin: publicOrigin(api) } })).status).toBe(410)
    expect((await api.admin('POST', '/accounts/999999/dashboard-link')).status).toBe(404)
    expect((await api.call('POST', '/api/v1/admin/accounts/1/dashboard-link')).status).toBe(401)
  })

  test("POST /api/v1/cli/dashboard-link answers the logged-in account's link; without a login token 401", async () => {
    const { token } = await login(api)
    const reply = await api.call('POST', '/api/v1/cli/dashboard-link', { token })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({ url: expect.stringMatching(/\/sign-in\/[A-Za-z0-9_-]+$/), expires_at: expect.any(String) })
    expect((await followLink(api, reply.body.data.url)).status).toBe(303)
    expect((await api.call('POST', '/api/v1/cli/dashboard-link', { token: 'svc_login_nope' })).status).toBe(401)
  })

  test('a partner portal link signs the partner in to /partner, and only there', async () => {
    const fixture = await api.setupProgram()
    const reply = await api.admin('POST', `/programs/${fixture.programId}/partners/${fixture.partnerId}/portal-link`)
    expect(reply.status).toBe(200)
    const opened = await followLink(api, reply.body.data.url)
    expect(opened.headers.get('location')).toBe('/partner')
    const cookie = cookieOf(opened)
    expect((await open('/partner', { cookie })).status).toBe(200)
    expect((await open('/dashboard', { cookie })).headers.get('location')).toBe('/sign-in')
    const other = await api.setupProgram()
    expect((await api.admin('POST', `/programs/${fixture.programId}/partners/${other.partnerId}/portal-link`)).status).toBe(404)
  })

  test('only hashes of link and session tokens are stored', async () => {
    const { accountId } = await login(api)
    const link = await dashboardLink(accountId)
    const token = pathOf(link.url).split('/').pop()!
    const cookie = cookieOf(await followLink(api, link.url)).split('=')[1]
    const client = api.server.deps.database.client
    const dump = JSON.stringify([client.prepare('SELECT * FROM sign_in_links').all(), client.prepare('SELECT * FROM web_sessions').all()])
    expect(dump).not.toContain(token)
    expect(dump).not.toContain(cookie)
  })

  test('Secure is set on the cookie when PUBLIC_BASE_URL is https', async () => {
    const secure = await startCliApi({ PUBLIC_BASE_URL: 'https://svc.example' })
    try {
      const account = await secure.admin('POST', '/accounts', { email: 'secure@shop.test' })
      const link = await secure.admin('POST', `/accounts/${account.body.data.account_id}/dashboard-link`)
      expect(link.body.data.url.startsWith('https://svc.example/sign-in/')).toBe(true)
      const opened = await followLink(secure, link.body.data.url)
      expect(opened.headers.get('set-cookie')).toContain('; Secure')
    } finally {
      await secure.stop()
    }
  })
})

describe('links opened by machines, login CSRF and stale sessions', () => {
  test('GET and HEAD on a link (mail scanners, chat previews) use nothing up and set no cookie', async () => {
    const { accountId } = await login(api)
    const url = (await dashboardLink(accountId)).url
    for (const method of ['GET', 'HEAD', 'GET']) {
      const seen = await open(pathOf(url), { method })
      expect(seen.status).toBe(200)
      expect(seen.headers.get('set-cookie')).toBeNull()
    }
    const used = await followLink(api, url)
    expect(used.status).toBe(303)
    expect(used.headers.get('location')).toBe('/dashboard')
  })

  test('a post of the link from another site (login CSRF) is refused and leaves the link unused', async () => {
    const { accountId } = await login(api)
    const url = (await dashboardLink(accountId)).url
    for (const origin of ['https://evil.example', new URL(api.url).origin, 'null']) {
      const forged = await open(pathOf(url), { form: {}, headers: { origin } })
      expect(forged.status).toBe(403)
      expect(forged.headers.get('set-cookie')).toBeNull()
    }
    expect((await followLink(api, url)).status).toBe(303)
  })

  test('signing in through a link ends the session the browser came with', async () => {
    const first = await login(api)
    const second = await login(api)
    const old = await signIn(first.accountId)
    const next = await followLink(api, (await dashboardLink(second.accountId)).url, old)
    expect(next.status).toBe(303)
    expect((await open('/dashboard', { cookie: old })).headers.get('location')).toBe('/sign-in')
    expect((await open('/dashboard', { cookie: cookieOf(next) })).status).toBe(200)
  })

  test("the owner signs a partner out everywhere: the partner's sessions and unused links end", async () => {
    const fixture = await api.setupProgram()
    const portalLink = async () =>
      (await api.admin('POST', `/programs/${fixture.programId}/partners/${fixture.partnerId}/portal-link`)).body.data.url as string
    const partner = cookieOf(await followLink(api, await portalLink()))
    const unused = await portalLink()
    expect((await open('/partner', { cookie: partner })).status).toBe(200)
    const owner = await signIn(fixture.accountId)
    const page = await open(`/dashboard/programs/${fixture.programId}/partners/${fixture.partnerId}`, { cookie: owner })
    expect(page.text).toContain('Sign out everywhere')
    const out = await open(`/dashboard/programs/${fixture.programId}/partners/${fixture.partnerId}/sign-out`, {
      cookie: owner,
      form: { _csrf: csrfOf(page.text) },
      headers: { origin: publicOrigin(api) },
    })
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toContain('done=partner_signed_out')
    expect((await open('/partner', { cookie: partner })).headers.get('location')).toBe('/partner/sign-in')
    expect((await followLink(api, unused)).status).toBe(410)
    // Another account cannot sign this partner out.
    const stranger = await signIn((await login(api)).accountId)
    const strangerPage = await open('/dashboard', { cookie: stranger })
    const refused = await open(`/dashboard/programs/${fixture.programId}/partners/${fixture.partnerId}/sign-out`, {
      cookie: stranger,
      form: { _csrf: csrfOf(strangerPage.text) },
      headers: { origin: publicOrigin(api) },
    })
    expect(refused.status).toBe(404)
  })
})

describe('sessions', () => {
  test('without a session every page redirects to the sign-in page, which says how to sign in', async () => {
    for (const path of [
      '/dashboard',
      '/dashboard/programs/1',
      '/dashboard/programs/1/partners',
      '/dashboard/programs/1/sales',
      '/dashboard/programs/1/commissions',
      '/dashboard/programs/1/payouts',
      '/dashboard/programs/1/events',
      '/dashboard/programs/1/settings',
      '/partner',
    ]) {
      const reply = await open(path, { cookie: 'svc_session=forged-session-value-0123456789' })
      // docs/decisions.md, The first hour: partners land on the partner sign-in.
      const location = path.startsWith('/partner') ? '/partner/sign-in' : '/sign-in'
      expect({ path, status: reply.status, location: reply.headers.get('location') }).toEqual({ path, status: 303, location })
    }
    const help = await open('/sign-in')
    expect(help.status).toBe(200)
    expect(help.text).toContain('svc dashboard')
    expect(help.text).toContain('/dashboard-link')
  })

  test("another account's program is a 404 page, never shown", async () => {
    const { accountId } = await login(api)
    const cookie = await signIn(accountId)
    const other = await api.setupProgram({ name: 'Secret program' })
    for (const path of ['', '/partners', '/sales', '/settings']) {
      const reply = await open(`/dashboard/programs/${other.programId}${path}`, { cookie })
      expect(reply.status).toBe(404)
      expect(reply.headers.get('content-type')).toContain('text/html')
      expect(reply.text).not.toContain('Secret program')
    }
    expect((await open('/dashboard/programs/abc', { cookie })).status).toBe(404)
    expect((await open('/dashboard/nothing/here', { cookie })).status).toBe(404)
  })

  test('sign-out revokes the session: the same cookie signs nobody in afterwards', async () => {
    const { accountId } = await login(api)
    const cookie = await signIn(accountId)
    const page = await open('/dashboard', { cookie })
    const out = await open('/sign-out', { cookie, form: { _csrf: csrfOf(page.text) }, headers: { origin: publicOrigin(api) } })
    expect(out.status).toBe(303)
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await open('/dashboard', { cookie })).headers.get('location')).toBe('/sign-in')
  })

  test('a session ends after its lifetime', async () => {
    const first = await login(api)
    const cookie = await signIn(first.accountId)
    api.clock.advance(days(8))
    expect((await open('/dashboard', { cookie })).status).toBe(303)
  })

  test('suspending an account revokes its sessions and unused links; unsuspending brings none back', async () => {
    const { accountId } = await login(api)
    const cookie = await signIn(accountId)
    const unused = (await dashboardLink(accountId)).url
    expect((await open('/dashboard', { cookie })).status).toBe(200)
    await api.admin('POST', `/accounts/${accountId}/suspend`)
    expect((await open('/dashboard', { cookie })).headers.get('location')).toBe('/sign-in')
    await api.admin('POST', `/accounts/${accountId}/unsuspend`)
    // The attack: a stolen cookie or a link in a mailbox came back to life with the account.
    expect((await open('/dashboard', { cookie })).headers.get('location')).toBe('/sign-in')
    expect((await followLink(api, unused)).status).toBe(410)
    expect((await open('/dashboard', { cookie: await signIn(accountId) })).status).toBe(200)
  })

  test('a cross-site POST is refused: a foreign Origin, or no form token, changes nothing', async () => {
    const fixture = await api.setupProgram()
    const cookie = await signIn(fixture.accountId)
    const page = await open(`/dashboard/programs/${fixture.programId}/partners`, { cookie })
    const csrf = csrfOf(page.text)
    const path = `/dashboard/programs/${fixture.programId}/partners`
    const foreign = await open(path, { cookie, form: { _csrf: csrf, name: 'Evil' }, headers: { origin: 'https://evil.example' } })
    expect(foreign.status).toBe(403)
    const tokenless = await open(path, { cookie, form: { name: 'Evil' } })
    expect(tokenless.status).toBe(403)
    const wrong = await open(path, { cookie, form: { _csrf: 'a'.repeat(64), name: 'Evil' }, headers: { origin: publicOrigin(api) } })
    expect(wrong.status).toBe(403)
    const partners = await api.admin('GET', `/programs/${fixture.programId}/partners`)
    expect(partners.body.data.map((p: { name: string }) => p.name)).not.toContain('Evil')
    const good = await open(path, { cookie, form: { _csrf: csrf, name: 'Good' }, headers: { origin: publicOrigin(api) } })
    expect(good.status).toBe(303)
    expect((await api.admin('GET', `/programs/${fixture.programId}/partners`)).body.data.map((p: { name: string }) => p.name)).toContain(
      'Good',
    )
  })

  test('a form whose Origin is the address the request was sent to, but not PUBLIC_BASE_URL, is refused', async () => {
    // The attack: the Origin was compared with one derived from the request's own Host header,
    // which whoever sends the request writes.
    const fixture = await api.setupProgram()
    const cookie = await signIn(fixture.accountId)
    const path = `/dashboard/programs/${fixture.programId}/partners`
    const csrf = csrfOf((await open(path, { cookie })).text)
    expect(new URL(api.url).origin).not.toBe(publicOrigin(api))
    const hostDerived = await open(path, { cookie, form: { _csrf: csrf, name: 'Host' }, headers: { origin: new URL(api.url).origin } })
    expect(hostDerived.status).toBe(403)
    expect(hostDerived.text).toContain(api.server.deps.config.publicBaseUrl)
    const names = (await api.admin('GET', `/programs/${fixture.programId}/partners`)).body.data.map((p: { name: string }) => p.name)
    expect(names).not.toContain('Host')
  })

  test("pages answer HTML without the API's rate-limit headers or envelopes", async () => {
    const { accountId } = await login(api)
    const cookie = await signIn(accountId)
    for (let i = 0; i < 70; i++) {
      const reply = await open('/dashboard', { cookie })
      expect(reply.status).toBe(200)
      expect(reply.headers.get('x-ratelimit-limit')).toBeNull()
    }
  })
})
