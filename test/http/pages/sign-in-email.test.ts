// docs/decisions.md, Email: sign-in by email. Only an active partner (or an account) is emailed a
// link, at most 5 per email and 20 per client IP an hour, and the page answers the same words
// whether or not the email is known. Each rule here was broken by hand once and seen to fail its
// test (docs/testing.md).
import { describe, expect, test } from 'bun:test'
import { type Api, minutes } from '../../helpers.ts'
import { cookieOf, type PortalKit, signedIn, withPortalKit, unique } from './portal-kit.ts'
import { followLink } from './sessions.ts'

let kit: PortalKit
let api: Api
withPortalKit((started) => {
  kit = started
  api = started.api
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
  // A known email's link is written 50 to 150 ms after the answer (sign-in's time tells nothing).
  await Bun.sleep(250)
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
    await kit.act(f.programId, suspended.partnerId, 'suspend')
    const deleted = await partnerWithEmail(f.programId)
    await api.admin('DELETE', `/programs/${f.programId}/partners/${deleted.partnerId}`)
    const pending = await kit.pendingApplicant()
    const rejected = await kit.pendingApplicant()
    await kit.act(rejected.programId, rejected.partnerId, 'reject')
    const active = await partnerWithEmail(f.programId)
    for (const { email } of [suspended, deleted, pending, rejected]) expect((await askForLink(email)).status).toBe(200)
    // Typed with spaces around it, as a phone keyboard leaves them.
    expect((await askForLink(`  ${active.email} `)).status).toBe(200)
    // The active partner's link was queued after the others were refused or not.
    expect(await signInMails(active.email)).toBe(1)
    const [mail] = await kit.mailsTo(active.email, 'asked to sign in')
    expect(mail!.subject).toBe('Your sign-in link for the Shop of Links partner portal')
    const link = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    expect(await kit.portal(cookieOf(await followLink(api, link)))).toEqual(signedIn)
    // Suspending sent the suspended partner nothing (only a rejection is emailed).
    const outbox = (await api.admin('GET', '/emails?limit=100')).body.data as { to: string }[]
    expect(outbox.filter((m) => m.to === suspended.email)).toEqual([])
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
    const [mail] = await kit.mailsTo(owner, 'asked to sign in')
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
