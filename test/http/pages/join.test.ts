// docs/decisions.md, "Partners who join on their own" and "Email": the public join page, partner
// status, and emails received by a real SMTP server (smtp-server, parsed with mailparser).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api, startApi } from '../../helpers.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'
import { joinProgram } from './join-kit.ts'
import { followLink } from './sessions.ts'

let api: Api
let smtp: Smtp
beforeAll(async () => {
  smtp = await startSmtp()
  api = await startApi({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Shop Partners <partners@shop.test>', SVC_RATE_LIMIT_SCALE: '1000', TRUST_PROXY: 'true' },
  })
})
afterAll(async () => {
  await api.stop()
  await smtp.stop()
})

let n = 0
const unique = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`

/** A program whose partners may join (`approval` or `open`), with the owner's email. */
const program = (signup: 'approval' | 'open' | 'off', owner = `${unique('owner')}@shop.test`) => joinProgram(api, signup, owner)

/** A join post from a client address of its own (each test its own bucket of 10 an hour). */
const apply = (programId: number, body: Record<string, unknown>, ip = unique('ip')) =>
  api.call('POST', `/join/${programId}`, { body, headers: { 'x-forwarded-for': ip } })

/** The program's partner with this email, read through the operator API (join answers no id). */
async function partnerOf(programId: number, email: string) {
  const found = (await api.admin('GET', `/programs/${programId}/partners?q=${encodeURIComponent(email)}`)).body.data
  return found[0] as { partner_id: number; status: string; name: string } | undefined
}

const RECEIVED = { data: { status: 'received' }, error: null }

const mailTo = async (address: string, count = 1) => {
  for (let i = 0; i < 100; i++) {
    const found = smtp.received.filter((m) => m.to.includes(address))
    if (found.length >= count) return found
    await Bun.sleep(20)
  }
  return smtp.received.filter((m) => m.to.includes(address))
}

describe('the join page', () => {
  test('off, or no such program: 404; otherwise the page names the program, its domain and terms in words', async () => {
    const off = await program('off')
    expect((await fetch(`${api.url}/join/${off.id}`)).status).toBe(404)
    expect((await apply(off.id, { name: 'A', email: 'a@b.test' })).status).toBe(404)
    expect((await fetch(`${api.url}/join/999999`)).status).toBe(404)
    const on = await program('approval')
    const page = await fetch(`${api.url}/join/${on.id}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Shop Partners')
    expect(html).toContain('shop.test')
    expect(html).toContain('20% of each referred customer&#39;s first sale')
    for (const field of ['name', 'email', 'website', 'promotion', 'short_link', 'company']) expect(html).toContain(`name="${field}"`)
  })

  test('an application under approval: 202 received; the applicant and the owner are emailed; the same email again changes and sends nothing', async () => {
    const p = await program('approval')
    const email = `${unique('ada')}@partner.test`
    const reply = await apply(p.id, {
      name: 'Ada Lovelace',
      email,
      website: 'https://ada.test',
      promotion: 'My newsletter',
      short_link: unique('ada'),
    })
    expect(reply.status).toBe(202)
    expect(reply.body).toEqual(RECEIVED)
    const partner = (await partnerOf(p.id, email))!
    expect(partner.status).toBe('pending')
    const [received] = await mailTo(email)
    expect(received!.subject).toBe('Your application to Shop Partners')
    expect(received!.from).toContain('Shop Partners')
    expect(received!.from).toContain('<partners@shop.test>')
    const [owner] = await mailTo(p.owner)
    expect(owner!.subject).toContain(`Ada Lovelace <${email}>`)
    expect(owner!.text).toContain(`/dashboard/programs/${p.id}/partners/${partner.partner_id}`)
    // The owner's email shows what the applicant wrote: name, email, website and promotion.
    for (const words of ['Name: Ada Lovelace', `Email: ${email}`, 'Website: https://ada.test', 'My newsletter'])
      expect(owner!.text).toContain(words)
    const again = await apply(p.id, { name: 'Someone else', email: email.toUpperCase() })
    expect(again.status).toBe(202)
    expect(again.body).toEqual(RECEIVED)
    await Bun.sleep(200)
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1)
    const partners = (await api.admin('GET', `/programs/${p.id}/partners?status=pending`)).body.data
    expect(partners).toHaveLength(1)
    expect(partners[0]).toMatchObject({ name: 'Ada Lovelace', website: 'https://ada.test', promotion: 'My newsletter', status: 'pending' })
  })

  test("a pending partner's link does not exist yet; approval makes the wished one and emails it with a portal link that signs in", async () => {
    const p = await program('approval')
    const email = `${unique('bo')}@partner.test`
    const wished = unique('bo')
    await apply(p.id, { name: 'Bo', email, short_link: wished })
    const id = (await partnerOf(p.id, email))!.partner_id
    const approved = await api.admin('POST', `/programs/${p.id}/partners/${id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.body.data.status).toBe('active')
    const links = (await api.admin('GET', `/programs/${p.id}/links`)).body.data
    expect(links.map((l: { short_link: string }) => l.short_link)).toEqual([wished])
    // The application's email and the approval's arrive in any order (the outbox sends several at once).
    const mail = (await mailTo(email, 2)).find((m) => m.subject === 'Shop Partners approved your application')
    expect(mail).toBeDefined()
    expect(mail!.text).toContain(`https://shop.test/?aff=${wished}`)
    const signIn = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    const opened = await followLink(api, signIn)
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe('/partner')
    const click = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${wished}` } })
    expect(click.status).toBe(200)
    // A sent body that held the link keeps it nowhere.
    const stored = api.server.deps.database.client
      .prepare('SELECT text_body FROM emails WHERE kind = ? AND to_address = ?')
      .get('application_approved', email) as {
      text_body: string
    }
    expect(stored.text_body).not.toContain('/sign-in/')
  })

  test('a wished short link already taken gets a generated one; reject emails the reason; open approves at once', async () => {
    const p = await program('approval')
    const taken = unique('taken')
    const firstEmail = `${unique('f')}@p.test`
    await apply(p.id, { name: 'First', email: firstEmail, short_link: taken })
    await api.admin('POST', `/programs/${p.id}/partners/${(await partnerOf(p.id, firstEmail))!.partner_id}/approve`)
    const secondEmail = `${unique('s')}@p.test`
    await apply(p.id, { name: 'Second Person', email: secondEmail, short_link: taken })
    await api.admin('POST', `/programs/${p.id}/partners/${(await partnerOf(p.id, secondEmail))!.partner_id}/approve`)
    const links = (await api.admin('GET', `/programs/${p.id}/links`)).body.data.map((l: { short_link: string }) => l.short_link)
    expect(links).toContain(taken)
    expect(links.find((l: string) => l !== taken)).toMatch(/^second-person-[0-9a-f]{8}$/)

    const email = `${unique('r')}@p.test`
    await apply(p.id, { name: 'R', email })
    const reply = await api.call('POST', `/api/v1/admin/programs/${p.id}/partners/${(await partnerOf(p.id, email))!.partner_id}/reject`, {
      token: ADMIN_TOKEN,
      body: { reason: 'Not a fit for us' },
    })
    expect(reply.body.data.status).toBe('rejected')
    // The application's email and the rejection's: the outbox sends several at once, in any order.
    const mails = await mailTo(email, 2)
    expect(mails).toHaveLength(2)
    expect(mails.filter((m) => m.text.includes('Not a fit for us'))).toHaveLength(1)

    const open = await program('open')
    const openEmail = `${unique('o')}@p.test`
    const joined = await apply(open.id, { name: 'Olive', email: openEmail })
    expect(joined.body).toEqual(RECEIVED)
    expect((await partnerOf(open.id, openEmail))!.status).toBe('active')
    const [welcome] = await mailTo(openEmail)
    expect(welcome!.subject).toBe('Shop Partners approved your application')
    const [ownerMail] = await mailTo(open.owner)
    expect(ownerMail!.subject).toContain('Olive')
  })

  test('hostile input: the honeypot stores and sends nothing, a bad field is 400 naming it, the 11th application an hour is 429', async () => {
    const p = await program('approval')
    const trap = await apply(p.id, { name: 'Bot', email: `${unique('bot')}@p.test`, company: 'ACME' })
    expect(trap.status).toBe(202)
    expect(trap.body).toEqual(RECEIVED)
    expect((await api.admin('GET', `/programs/${p.id}/partners`)).body.data).toEqual([])
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'a@b.test' }, 'name is required and must be at most 200 characters'],
      [{ name: 'x'.repeat(201), email: 'a@b.test' }, 'name is required and must be at most 200 characters'],
      [{ name: 'A', email: 'not an email' }, 'email must be an email address'],
      [{ name: 'A', email: 'a@b.test\r\nBcc: victim@evil.test' }, 'email must be an email address'],
      [{ name: 'A', email: 'a@b.test', website: 'javascript:alert(1)' }, 'website must be an http(s) URL of at most 300 characters'],
      [{ name: 'A', email: 'a@b.test', promotion: 'p'.repeat(1001) }, 'promotion must be at most 1000 characters'],
      [{ name: 'A', email: 'a@b.test', short_link: 'no spaces' }, 'short_link must be 1 to 100 letters, digits, - or _'],
    ]
    const ip = unique('ip')
    for (const [body, message] of cases) {
      const reply = await apply(p.id, body, ip)
      expect({ status: reply.status, message: reply.body.error?.message }).toEqual({ status: 400, message })
    }
    // 7 refused and 3 taken: 10 applications from this address this hour.
    for (let i = 0; i < 3; i++) expect((await apply(p.id, { name: 'Ok', email: `${unique('ok')}@p.test` }, ip)).status).toBe(202)
    const limited = await apply(p.id, { name: 'Ok', email: `${unique('ok')}@p.test` }, ip)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await apply(p.id, { name: 'Other', email: `${unique('ok')}@p.test` })).status).toBe(202)
  })

  test('names with markup reach no header and no HTML as written', async () => {
    const p = await program('approval')
    const email = `${unique('x')}@p.test`
    await apply(p.id, { name: 'Eve Bcc: victim@evil.test <script>alert(1)</script>', email })
    const [owner] = await mailTo(p.owner)
    expect(owner!.to).toEqual([p.owner])
    expect(owner!.headers.has('bcc')).toBe(false)
    expect(owner!.subject).not.toContain('\n')
    expect(owner!.html).not.toContain('<script>')
    expect(smtp.received.some((m) => m.to.includes('victim@evil.test'))).toBe(false)
  })

  test('a form post gets a page that says what happens next', async () => {
    const p = await program('approval')
    const reply = await fetch(`${api.url}/join/${p.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': unique('ip') },
      body: new URLSearchParams({ name: 'Form Person', email: `${unique('form')}@p.test` }).toString(),
    })
    expect(reply.status).toBe(200)
    const text = await reply.text()
    expect(text).toContain('Check your email')
    expect(text).toContain('has your application')
  })
})

describe('sign-in by email', () => {
  test('a known account and an active partner get a link; an unknown email gets the same words and nothing', async () => {
    const owner = `${unique('known')}@shop.test`
    const p = await program('open', owner)
    const post = (path: string, email: string) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': unique('ip') },
        body: new URLSearchParams({ email }).toString(),
      }).then(async (r) => ({ status: r.status, text: await r.text() }))
    const known = await post('/sign-in', owner.toUpperCase())
    const unknown = await post('/sign-in', `${unique('nobody')}@shop.test`)
    expect(known.status).toBe(200)
    expect(known.text).toBe(unknown.text)
    const [mail] = await mailTo(owner)
    const link = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    expect((await followLink(api, link)).headers.get('location')).toBe('/dashboard')

    const partnerEmail = `${unique('pp')}@p.test`
    await apply(p.id, { name: 'Pat', email: partnerEmail })
    await mailTo(partnerEmail)
    await post('/partner/sign-in', partnerEmail)
    const [, signIn] = await mailTo(partnerEmail, 2)
    expect(signIn!.subject).toBe('Your sign-in link for the Shop Partners partner portal')
  })
})
