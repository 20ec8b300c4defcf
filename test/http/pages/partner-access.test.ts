// docs/decisions.md, Hostile input (turn 3) and Email: who may be signed in to the partner portal,
// and for how long. A partner's sessions and unused links end when they are suspended, rejected or
// deleted (by the operator API or the dashboard) and stay ended; only an active partner is emailed
// a link, at most 5 per email and 20 per client IP an hour; a session lasts 7 days. Each rule here
// was broken by hand once and seen to fail its test (docs/testing.md).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, days, minutes, startApi } from '../../helpers.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'
import { followLink, publicOrigin, signInAccount } from './sessions.ts'

let api: Api
let smtp: Smtp
beforeAll(async () => {
  smtp = await startSmtp()
  api = await startApi({ env: { SMTP_URL: smtp.url, SVC_RATE_LIMIT_SCALE: '1000', TRUST_PROXY: 'true' } })
})
afterAll(async () => {
  await api.stop()
  await smtp.stop()
})

let n = 0
const unique = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`
const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0] as string

/** What `/partner` answers the browser holding `cookie`: 200 signed in, else the redirect to a sign-in page. */
async function portal(cookie: string): Promise<{ status: number; location: string | null }> {
  const reply = await fetch(`${api.url}/partner`, { headers: { cookie }, redirect: 'manual' })
  await reply.text()
  return { status: reply.status, location: reply.headers.get('location') }
}
const signedIn = { status: 200, location: null }
const signedOut = { status: 303, location: expect.stringMatching(/\/sign-in$/) }

/** A one-time portal link for the partner, made by the operator. */
const portalLink = async (programId: number, partnerId: number) => {
  const reply = await api.admin('POST', `/programs/${programId}/partners/${partnerId}/portal-link`)
  expect(reply.status).toBe(200)
  return reply.body.data.url as string
}

/** A partner's browser signed in through a link, and a second link left unused in their mailbox. */
async function signedInPartner(programId: number, partnerId: number) {
  const cookie = cookieOf(await followLink(api, await portalLink(programId, partnerId)))
  return { cookie, unused: await portalLink(programId, partnerId) }
}

/** The partner's sessions are over for good: the cookie, and the link they had not used yet (410). */
async function expectEnded(partner: { cookie: string; unused: string }) {
  expect(await portal(partner.cookie)).toEqual(signedOut)
  expect((await followLink(api, partner.unused)).status).toBe(410)
}

const act = (programId: number, partnerId: number, action: string) =>
  api.admin('POST', `/programs/${programId}/partners/${partnerId}/${action}`, action === 'reject' ? { reason: 'no' } : undefined)

/** A program under `approval` with one pending applicant (by the join form): its ids and the applicant's email. */
async function pendingApplicant() {
  const programName = unique('Shop')
  const f = await api.setupProgram({ partner_signup: 'approval', name: programName })
  const email = `${unique('applicant')}@partner.test`
  const applied = await api.call('POST', `/join/${f.programId}`, {
    body: { name: 'Applicant', email },
    headers: { 'x-forwarded-for': unique('ip') },
  })
  expect(applied.status).toBeLessThan(300)
  const pending = (await api.admin('GET', `/programs/${f.programId}/partners?status=pending`)).body.data
  const partnerId = pending.find((p: { email: string }) => p.email === email).partner_id as number
  return { ...f, partnerId, email, programName }
}

/** The emails the SMTP server got for `to` whose text holds `words` (waits up to 2 s for the first). */
async function mailsTo(to: string, words: string) {
  const found = () => smtp.received.filter((m) => m.to.includes(to) && m.text.includes(words))
  for (let i = 0; i < 100 && found().length === 0; i++) await Bun.sleep(20)
  return found()
}

describe('the session cookie', () => {
  test('two links made in a row both work, and a second browser signing in leaves the first signed in', async () => {
    const f = await api.setupProgram()
    const first = await portalLink(f.programId, f.partnerId)
    api.clock.advance(minutes(1))
    const second = await portalLink(f.programId, f.partnerId)
    const one = cookieOf(await followLink(api, first))
    api.clock.advance(minutes(1))
    const two = cookieOf(await followLink(api, second))
    expect([await portal(one), await portal(two)]).toEqual([signedIn, signedIn])
  })

  test('is read among other cookies, by its exact name, and only with a token of its shape', async () => {
    const f = await api.setupProgram()
    const cookie = cookieOf(await followLink(api, await portalLink(f.programId, f.partnerId)))
    const value = cookie.slice('svc_session='.length)
    expect(await portal(`theme=dark; ${cookie} ; lang=en`)).toEqual(signedIn)
    expect(await portal(`svc_session = ${value}`)).toEqual(signedIn)
    for (const other of [
      `xsvc_session=${value}`,
      `svc_session_old=${value}`,
      `svc_session=${value}!`,
      `svc_session=!${value}`,
      `=${value}`,
    ]) {
      expect({ other, ...(await portal(other)) }).toEqual({ other, ...signedOut })
    }
  })

  test('signing out clears the cookie, with Secure when PUBLIC_BASE_URL is https', async () => {
    const out = async (server: Api) => {
      const reply = await fetch(`${server.url}/sign-out`, { method: 'POST', redirect: 'manual' })
      return reply.headers.get('set-cookie')
    }
    expect(await out(api)).toBe('svc_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0')
    const secure = await startApi({ env: { PUBLIC_BASE_URL: 'https://svc.example' } })
    try {
      expect(await out(secure)).toBe('svc_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure')
    } finally {
      await secure.stop()
    }
  })

  test('a form without an Origin header is judged by its token alone', async () => {
    const f = await api.setupProgram()
    const owner = await signInAccount(api, f.accountId)
    const page = await (await fetch(`${api.url}/dashboard`, { headers: { cookie: owner } })).text()
    const csrf = page.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const post = (form: Record<string, string>) =>
      fetch(`${api.url}/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: owner, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      })
    expect((await post({ _csrf: 'f'.repeat(64) })).status).toBe(403)
    expect((await post({ _csrf: csrf })).headers.get('location')).toBe('/sign-in?signed_out=1')
  })
})

describe("a partner's sessions end with their standing", () => {
  test('suspending a partner ends their sessions and unused links; unsuspending brings none back', async () => {
    const f = await api.setupProgram()
    const partner = await signedInPartner(f.programId, f.partnerId)
    expect(await portal(partner.cookie)).toEqual(signedIn)
    const second = await portalLink(f.programId, f.partnerId)
    expect((await act(f.programId, f.partnerId, 'suspend')).status).toBe(200)
    expect(await portal(partner.cookie)).toEqual(signedOut)
    // Used up at the suspension itself, not only refused while it lasts.
    expect((await followLink(api, second)).status).toBe(410)
    expect((await act(f.programId, f.partnerId, 'unsuspend')).status).toBe(200)
    // The attack: a stolen cookie or a link in a mailbox comes back to life with the partner.
    await expectEnded(partner)
    expect(await portal(cookieOf(await followLink(api, await portalLink(f.programId, f.partnerId))))).toEqual(signedIn)
  })

  test('rejecting an applicant ends their sessions and unused links; approving them later brings none back', async () => {
    const a = await pendingApplicant()
    const partner = await signedInPartner(a.programId, a.partnerId)
    expect((await act(a.programId, a.partnerId, 'reject')).status).toBe(200)
    const [rejection] = await mailsTo(a.email, 'did not accept your application')
    expect(rejection!.text).toContain('Their note: no')
    expect((await act(a.programId, a.partnerId, 'approve')).status).toBe(200)
    await expectEnded(partner)
  })

  test('approving an applicant makes them active, emailed with a sign-in link that works', async () => {
    const a = await pendingApplicant()
    const approved = await act(a.programId, a.partnerId, 'approve')
    expect(approved.body.data).toMatchObject({ partner_id: a.partnerId, status: 'active' })
    const [mail] = await mailsTo(a.email, 'approved your application')
    expect(mail!.subject).toBe(`You are a ${a.programName} partner`)
    const link = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    expect(await portal(cookieOf(await followLink(api, link)))).toEqual(signedIn)
  })

  test("a suspended account's partners are refused while it lasts, and let in again after", async () => {
    const f = await api.setupProgram()
    const partner = await signedInPartner(f.programId, f.partnerId)
    await api.admin('POST', `/accounts/${f.accountId}/suspend`)
    expect(await portal(partner.cookie)).toEqual(signedOut)
    await api.admin('POST', `/accounts/${f.accountId}/unsuspend`)
    expect(await portal(partner.cookie)).toEqual(signedIn)
  })

  test('deleting a partner through the operator API ends their sessions and unused links', async () => {
    const f = await api.setupProgram()
    const partner = await signedInPartner(f.programId, f.partnerId)
    expect(await portal(partner.cookie)).toEqual(signedIn)
    const deleted = await api.admin('DELETE', `/programs/${f.programId}/partners/${f.partnerId}`)
    expect(deleted.body).toEqual({ data: { partner_id: f.partnerId, deleted: true }, error: null })
    await expectEnded(partner)
  })

  test('deleting a partner from the dashboard ends their sessions and unused links', async () => {
    const f = await api.setupProgram()
    const partner = await signedInPartner(f.programId, f.partnerId)
    expect(await portal(partner.cookie)).toEqual(signedIn)
    const owner = await signInAccount(api, f.accountId)
    const page = await fetch(`${api.url}/dashboard/programs/${f.programId}/partners/${f.partnerId}`, { headers: { cookie: owner } })
    const csrf = (await page.text()).match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const deleted = await fetch(`${api.url}/dashboard/programs/${f.programId}/partners/${f.partnerId}/delete`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: owner, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    })
    expect(deleted.headers.get('location')).toContain('done=partner_deleted')
    await expectEnded(partner)
  })

  test('a partner who is not active is signed in to nothing, even through a link made after the change', async () => {
    const suspended = await api.setupProgram()
    await act(suspended.programId, suspended.partnerId, 'suspend')
    const deleted = await api.setupProgram()
    await api.admin('DELETE', `/programs/${deleted.programId}/partners/${deleted.partnerId}`)
    const pending = await pendingApplicant()
    for (const who of [suspended, deleted, pending]) {
      const opened = await followLink(api, await portalLink(who.programId, who.partnerId))
      expect(await portal(cookieOf(opened))).toEqual(signedOut)
    }
  })

  test('a session lasts 7 days: the cookie says so, it works until then and not a minute after', async () => {
    const f = await api.setupProgram()
    const opened = await followLink(api, await portalLink(f.programId, f.partnerId))
    expect(opened.headers.get('set-cookie')).toMatch(/; Max-Age=604800(;|$)/)
    const cookie = cookieOf(opened)
    api.clock.advance(days(7) - minutes(1))
    expect(await portal(cookie)).toEqual(signedIn)
    api.clock.advance(minutes(1))
    expect(await portal(cookie)).toEqual(signedOut)
  })
})

/** POST /partner/sign-in from client address `ip`: the status, Retry-After and the page. */
async function askForLink(email: string, ip = unique('ip')) {
  const reply = await fetch(`${api.url}/partner/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({ email }).toString(),
  })
  return { status: reply.status, retryAfter: reply.headers.get('retry-after'), text: await reply.text() }
}

/** The sign-in links the outbox holds for `email` (queued, sent or failed alike). */
async function signInMails(email: string): Promise<number> {
  const all = (await api.admin('GET', '/emails?limit=100')).body.data as { to: string; subject: string }[]
  return all.filter((m) => m.to === email && m.subject.startsWith('Your sign-in link')).length
}

/** A partner made by the operator with an email of its own (active). */
async function partnerWithEmail(programId: number) {
  const email = `${unique('partner')}@partner.test`
  const made = await api.admin('POST', `/programs/${programId}/partners`, { name: 'Pat', email })
  expect(made.status).toBe(201)
  return { partnerId: made.body.data.partner_id as number, email }
}

describe('sign-in links by email', () => {
  test('only an active partner is emailed a link: a pending, suspended, rejected or deleted one is sent nothing', async () => {
    const f = await api.setupProgram({ name: 'Shop of Links' })
    const suspended = await partnerWithEmail(f.programId)
    await act(f.programId, suspended.partnerId, 'suspend')
    const deleted = await partnerWithEmail(f.programId)
    await api.admin('DELETE', `/programs/${f.programId}/partners/${deleted.partnerId}`)
    const pending = await pendingApplicant()
    const rejected = await pendingApplicant()
    await act(rejected.programId, rejected.partnerId, 'reject')
    const active = await partnerWithEmail(f.programId)
    for (const { email } of [suspended, deleted, pending, rejected, active]) expect((await askForLink(email)).status).toBe(200)
    // The active partner's link was queued after the others were refused or not.
    expect(await signInMails(active.email)).toBe(1)
    const [mail] = await mailsTo(active.email, 'asked to sign in')
    expect(mail!.subject).toBe('Your sign-in link for the Shop of Links partner portal')
    for (const { email } of [suspended, deleted, pending, rejected])
      expect({ email, links: await signInMails(email) }).toEqual({ email, links: 0 })
  })

  test('an owner asking at /sign-in is emailed a dashboard link that signs them in; a form without an email gets the same words', async () => {
    const owner = `${unique('owner')}@shop.test`
    expect((await api.admin('POST', '/accounts', { email: owner })).status).toBe(201)
    const ask = (body: string) =>
      fetch(`${api.url}/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': unique('ip') },
        body,
      }).then(async (r) => ({ status: r.status, text: await r.text() }))
    const asked = await ask(new URLSearchParams({ email: owner }).toString())
    const [mail] = await mailsTo(owner, 'asked to sign in')
    expect(mail!.subject).toBe('Your sign-in link for your svc dashboard')
    const link = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    expect((await followLink(api, link)).headers.get('location')).toBe('/dashboard')
    expect(await ask('other=1')).toEqual(asked)
  })

  test('at most 5 links to one email an hour, whatever the address asking; the same words every time', async () => {
    const f = await api.setupProgram()
    const { email } = await partnerWithEmail(f.programId)
    const answers = new Set<string>()
    for (let i = 0; i < 6; i++) {
      const asked = await askForLink(i % 2 ? email.toUpperCase() : email)
      expect(asked.status).toBe(200)
      answers.add(asked.text)
    }
    expect(answers.size).toBe(1)
    expect([...answers][0]).toContain(
      'If that email belongs to an account here, a sign-in link is on its way. It works once, for 10 minutes.',
    )
    expect(await signInMails(email)).toBe(5)
    api.clock.advance(minutes(60))
    await askForLink(email)
    expect(await signInMails(email)).toBe(6)
  })

  test('at most 20 asks from one client address an hour, then 429 with Retry-After', async () => {
    const ip = unique('ip')
    for (let i = 0; i < 20; i++) expect((await askForLink(`${unique('nobody')}@shop.test`, ip)).status).toBe(200)
    const refused = await askForLink(`${unique('nobody')}@shop.test`, ip)
    expect(refused.status).toBe(429)
    expect(refused.text).toContain('Too many sign-in links asked from this address: try again later.')
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600)
    expect((await askForLink(`${unique('nobody')}@shop.test`)).status).toBe(200)
    api.clock.advance(minutes(60))
    expect((await askForLink(`${unique('nobody')}@shop.test`, ip)).status).toBe(200)
  })
})
