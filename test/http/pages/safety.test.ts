// docs/decisions.md, "Safety, third round": each attack an attacker-minded review showed against
// the join form and sign-in, reproduced against the real server and its real SMTP receiver.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'
import { joinProgram } from './join-kit.ts'

let api: Api
let smtp: Smtp
beforeAll(async () => {
  smtp = await startSmtp()
  api = await startApi({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Shop Partners <partners@shop.test>', TRUST_PROXY: 'true' } })
})
afterAll(async () => {
  await api.stop()
  await smtp.stop()
})

let n = 0
const unique = (prefix: string) => `${prefix}${++n}${Math.random().toString(36).slice(2, 7)}`
/** A client address of its own (198.18.0.0/15, one a call): every per-IP bucket starts empty. */
let addresses = 0
const freshIp = () => {
  const a = ++addresses
  return `198.${18 + ((a >> 16) & 1)}.${(a >> 8) & 255}.${a & 255}`
}

const program = async (signup: 'approval' | 'open' = 'approval') => (await joinProgram(api, signup, `${unique('owner')}@shop.test`)).id

const apply = (programId: number, body: Record<string, unknown>, ip = freshIp()) =>
  api.call('POST', `/join/${programId}`, { body, headers: { 'x-forwarded-for': ip } })

const applyByForm = (programId: number, fields: Record<string, string>, ip = freshIp()) =>
  fetch(`${api.url}/join/${programId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams(fields).toString(),
  }).then(async (r) => ({ status: r.status, text: await r.text() }))

const partnersOf = async (programId: number) => (await api.admin('GET', `/programs/${programId}/partners`)).body.data as { email: string }[]

/**
 * Every email received whose To: holds `part`, once `expected` of them have come (5 s at most: a
 * busy machine sends late) and 300 ms more have brought no other (one too many is seen too).
 */
async function mailsTo(part: string, expected = 1) {
  const matching = () => smtp.received.filter((m) => m.to.some((to) => to.includes(part)))
  for (let i = 0; i < 250 && matching().length < expected; i++) await Bun.sleep(20)
  await Bun.sleep(300)
  return matching()
}

/** Waits (5 s at most) for an email to `part` with this subject. */
async function awaitMail(part: string, subject: string) {
  for (let i = 0; i < 250; i++) {
    const found = smtp.received.find((m) => m.subject === subject && m.to.some((to) => to.includes(part)))
    if (found) return found
    await Bun.sleep(20)
  }
  return null
}

const RECEIVED = { data: { status: 'received' }, error: null }

describe('the join form relays no mail', () => {
  test('a control character in name, website or short_link, or one other than CR, LF and tab in promotion, is 400 naming the field', async () => {
    const p = await program()
    const rows: [Record<string, string>, string][] = [
      [
        { name: 'Ada\r\nBcc: victim@evil.test\r\n\r\nYour account is locked', email: 'a@p.test' },
        'name must not contain control characters',
      ],
      [{ name: 'Ada\u0000', email: 'a@p.test' }, 'name must not contain control characters'],
      [{ name: 'Ada\u007f', email: 'a@p.test' }, 'name must not contain control characters'],
      [{ name: 'Ada\n', email: 'a@p.test' }, 'name must not contain control characters'],
      [{ name: 'Ada', email: 'a@p.test', website: 'https://a.test/\r\nBcc: x' }, 'website must not contain control characters'],
      [{ name: 'Ada', email: 'a@p.test', short_link: 'ada\t' }, 'short_link must not contain control characters'],
      [{ name: 'Ada', email: 'a@p.test', promotion: 'My blog\u001b[31m' }, 'promotion must not contain control characters'],
    ]
    for (const [body, message] of rows) {
      const reply = await apply(p, body)
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: { data: null, error: expect.objectContaining({ message }) },
      })
    }
    const ok = await apply(p, { name: 'Ada', email: `${unique('ada')}@p.test`, promotion: 'Line one\r\nLine two\tand a tab' })
    expect(ok.status).toBe(202)
    expect(await partnersOf(p)).toHaveLength(1)
  })

  test("the applicant's email carries none of the applicant's words, not even the name", async () => {
    const p = await program()
    const victim = `${unique('victim')}@inbox.test`
    const name = 'Your account is locked verify at https://evil.example/login'
    const reply = await apply(p, { name, email: victim, website: 'https://evil.example/w', promotion: 'Visit https://evil.example/p now' })
    expect(reply.status).toBe(202)
    const [mail] = await mailsTo(victim)
    expect(mail).toBeDefined()
    expect(mail!.subject).toBe('Your application to Shop Partners')
    for (const part of [mail!.text, mail!.html, mail!.subject, JSON.stringify(mail!.headers.get('to'))]) {
      expect(part).not.toContain('evil.example')
      expect(part).not.toContain('locked')
    }
  })

  test("an open program's approval email to the applicant carries no applicant text either", async () => {
    const p = await program('open')
    const victim = `${unique('victim')}@inbox.test`
    await apply(p, { name: 'Click https://evil.example/now', email: victim, short_link: 'URGENT-call-555-0100-to-claim' })
    const [mail] = await mailsTo(victim)
    expect(mail!.subject).toBe('Shop Partners approved your application')
    // Neither the name nor the wished short link (the partner's link, shown in the portal the email opens).
    for (const part of [mail!.text, mail!.html]) {
      expect(part).not.toContain('evil.example')
      expect(part).not.toContain('URGENT')
      expect(part).not.toContain('?aff=')
    }
    expect(mail!.text).toContain('Your referral link is waiting in your partner portal')
    const links = (await api.admin('GET', `/programs/${p}/links`)).body.data
    expect(links.map((l: { short_link: string }) => l.short_link)).toEqual(['URGENT-call-555-0100-to-claim'])
    expect(mail!.text).toContain('this link works once, for 3 days')
  })

  test('victim+1@, victim+2@ … are the same applicant: one partner, one email', async () => {
    const p = await program()
    const local = unique('victim')
    for (const email of [`${local}@inbox.test`, `${local}+1@inbox.test`, `${local}+2@INBOX.test`, `${local.toUpperCase()}+x@inbox.test`]) {
      expect((await apply(p, { name: 'V', email })).body).toEqual(RECEIVED)
    }
    expect(await partnersOf(p)).toHaveLength(1)
    expect(await mailsTo(local)).toHaveLength(1)
  })

  test('one address is sent at most 3 emails a day across programs; the answer stays the same past the cap', async () => {
    const local = unique('many')
    for (let i = 0; i < 5; i++) {
      const p = await program()
      const reply = await apply(p, { name: 'M', email: `${local}+${i}@inbox.test` })
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 202, body: RECEIVED })
    }
    expect(await mailsTo(local, 3)).toHaveLength(3)
    api.clock.advance(24 * 3_600_000 + 1000)
    const p = await program()
    await apply(p, { name: 'M', email: `${local}@inbox.test` })
    expect(await mailsTo(local, 4)).toHaveLength(4)
  })
})

describe('join tells nobody who is a partner', () => {
  test('new, known, active, suspended and honeypot applicants get the same JSON and the same page', async () => {
    const p = await program()
    const active = `${unique('active')}@p.test`
    const made = await api.admin('POST', `/programs/${p}/partners`, { name: 'Act', email: active })
    const suspended = `${unique('susp')}@p.test`
    const other = await api.admin('POST', `/programs/${p}/partners`, { name: 'Sus', email: suspended })
    await api.admin('POST', `/programs/${p}/partners/${other.body.data.partner_id}/suspend`)
    expect(made.status).toBe(201)
    const emails = [`${unique('new')}@p.test`, active, suspended, active.toUpperCase()]
    const answers = await Promise.all(emails.map((email) => apply(p, { name: 'X', email })))
    answers.push(await apply(p, { name: 'Bot', email: `${unique('bot')}@p.test`, company: 'ACME' }))
    for (const reply of answers) expect({ status: reply.status, body: reply.body }).toEqual({ status: 202, body: RECEIVED })
    const pages = await Promise.all(emails.map((email) => applyByForm(p, { name: 'X', email })))
    pages.push(await applyByForm(p, { name: 'Bot', email: `${unique('bot')}@p.test`, company: 'ACME' }))
    for (const reply of pages) expect(reply).toEqual(pages[0]!)
    expect(pages[0]!.text).toContain('Check your email')
    expect(pages[0]!.text).not.toContain('Welcome')
  })
})

describe('one email identity', () => {
  test('JÜRGEN@ and jürgen@ (and a fullwidth ｊ) are one applicant, and such a partner gets a sign-in link', async () => {
    const p = await program()
    const domain = `${unique('d')}.test`
    await apply(p, { name: 'J', email: `jürgen@${domain}` })
    await apply(p, { name: 'J', email: `JÜRGEN@${domain}` })
    await apply(p, { name: 'J', email: `ｊürgen@${domain}` })
    const partners = await partnersOf(p)
    expect(partners).toHaveLength(1)
    await api.admin('POST', `/programs/${p}/partners/${(partners[0] as unknown as { partner_id: number }).partner_id}/approve`)
    const reply = await fetch(`${api.url}/partner/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
      body: new URLSearchParams({ email: `JÜRGEN@${domain.toUpperCase()}` }).toString(),
    })
    expect(reply.status).toBe(200)
    expect(await awaitMail(`@${domain}`, 'Your sign-in link for the Shop Partners partner portal')).not.toBeNull()
  })
})

describe('sign-in tells nobody who has an account', () => {
  const ask = async (email: string) => {
    const started = performance.now()
    const reply = await fetch(`${api.url}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
      body: new URLSearchParams({ email }).toString(),
    })
    const text = await reply.text()
    return { ms: performance.now() - started, text }
  }
  const account = async () => {
    const email = `${unique('timed')}@shop.test`
    await api.admin('POST', '/accounts', { email })
    return email
  }
  const linksTo = async (email: string) =>
    (await api.admin('GET', '/emails?status=queued')).body.data
      .concat((await api.admin('GET', '/emails?status=sent')).body.data)
      .filter((e: { to: string }) => e.to === email).length

  test("a known email's link is written after its answer, not before", async () => {
    const email = await account()
    const answer = await ask(email)
    expect(answer.text).toContain('If that email belongs to an account here, a sign-in link is on its way.')
    expect(await linksTo(email)).toBe(0)
    expect(await awaitMail(email, 'Your sign-in link for your svc dashboard')).not.toBeNull()
  })

  test('known and unknown emails are answered in the same time: medians of 40 interleaved requests differ by under 0.3 ms', async () => {
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    // A machine busy with other work makes single rounds noisy both ways; a leak (a commit with
    // fsync, about 1 ms here) makes every round differ. Three rounds at most, one must agree.
    const gaps: number[] = []
    for (let round = 0; round < 3; round++) {
      const known = await Promise.all(Array.from({ length: 40 }, account))
      await ask(`${unique('warm')}@shop.test`)
      const times = { known: [] as number[], unknown: [] as number[] }
      for (const email of known) {
        times.known.push((await ask(email)).ms)
        await Bun.sleep(5)
        times.unknown.push((await ask(`${unique('nobody')}@shop.test`)).ms)
        await Bun.sleep(5)
      }
      gaps.push(Math.abs(median(times.known) - median(times.unknown)))
      if (gaps.at(-1)! < 0.3) break
    }
    expect(Math.min(...gaps)).toBeLessThan(0.3)
  })
})

describe('IPv6 clients are limited by their /64', () => {
  const net = () => `2001:db8:${(++n).toString(16)}:7`
  test('join: 10 applications from one /64, whatever the rest of the address, then 429', async () => {
    const p = await program()
    const prefix = net()
    for (let i = 1; i <= 10; i++)
      expect((await apply(p, { name: 'A', email: `${unique('v6')}@p.test` }, `${prefix}::${i.toString(16)}`)).status).toBe(202)
    const over = await apply(p, { name: 'A', email: `${unique('v6')}@p.test` }, `${prefix}:ffff:1:2:3`)
    expect(over.status).toBe(429)
    expect((await apply(p, { name: 'A', email: `${unique('v6')}@p.test` }, `${net()}::1`)).status).toBe(202)
  })

  test('sign-in: 20 link requests from one /64, then 429; an IPv4-mapped address shares its IPv4 bucket', async () => {
    const ask = (ip: string) =>
      fetch(`${api.url}/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
        body: new URLSearchParams({ email: `${unique('who')}@p.test` }).toString(),
      }).then((r) => r.status)
    const prefix = net()
    for (let i = 1; i <= 20; i++) expect(await ask(`${prefix}:${i.toString(16)}::1`)).toBe(200)
    expect(await ask(`${prefix}:abcd:ef01:2345:6789`)).toBe(429)
    const v4 = freshIp()
    for (let i = 0; i < 10; i++) expect(await ask(v4)).toBe(200)
    for (let i = 0; i < 10; i++) expect(await ask(`::ffff:${v4}`)).toBe(200)
    expect(await ask(v4)).toBe(429)
  })
})

// Last: its 200 queued emails would keep the outbox busy for the tests after it.
describe('the per-program cap', () => {
  test('a program takes 100 applications an hour, then 429 with Retry-After', async () => {
    const p = await program()
    const batch = Array.from({ length: 100 }, (_, i) => apply(p, { name: 'A', email: `${unique('cap')}${i}@p.test` }))
    for (const reply of await Promise.all(batch)) expect(reply.status).toBe(202)
    const over = await apply(p, { name: 'A', email: `${unique('cap')}@p.test` })
    expect(over.status).toBe(429)
    expect(over.body.error.message).toBe('Too many applications to this program. Retry after the number of seconds in Retry-After.')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
