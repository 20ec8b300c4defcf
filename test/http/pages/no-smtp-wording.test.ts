// docs/decisions.md, The first hour: without SMTP_URL nothing is lost: every email is written to
// the server's stderr and recorded as logged, and every page that would have sent a link says
// "the link was written to the server's log". The words live in this one test.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { signInAccount } from './sessions.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000', TRUST_PROXY: 'true' } })
})
afterAll(() => api.stop())

let n = 0
/** GET or a form POST, from a client address of its own; the status and the page's text. */
async function page(path: string, form?: Record<string, string>, cookie?: string) {
  const reply = await fetch(api.url + path, {
    method: form ? 'POST' : 'GET',
    headers: {
      'x-forwarded-for': `10.0.0.${++n}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  })
  return { status: reply.status, text: (await reply.text()).replaceAll('&#39;', "'") }
}

test("without SMTP_URL, each page that would email a link says the link was written to the server's log, and every email is recorded as logged", async () => {
  const owners = await page('/sign-in')
  expect(owners.text).toContain("This server has no SMTP_URL: the link is written to the server's log")
  expect(owners.text).toContain('Email me a sign-in link')
  const partners = await page('/partner/sign-in')
  expect(partners.text).toContain("the link is written to the server's log, which the program's owner reads. Ask them for it.")
  for (const [path, words] of [
    ['/sign-in', "If that email belongs to an account here, the link was written to the server's log."],
    [
      '/partner/sign-in',
      "If that email belongs to a partner here, the link was written to the server's log: ask the program's owner for it.",
    ],
  ] as const) {
    const asked = await page(path, { email: 'someone@shop.test' })
    expect({ path, status: asked.status, says: asked.text.includes(words) }).toEqual({ path, status: 200, says: true })
  }

  const approval = await api.setupProgram({ name: 'Quiet Shop', partner_signup: 'approval' })
  const pending = await page(`/join/${approval.programId}`, { name: 'Pat', email: 'pat@partner.test' })
  expect(pending.text).toContain("what happens next was written to the server's log, where the owner of Quiet Shop reads it")
  expect(pending.text).not.toContain('look in your inbox')
  const open = await api.setupProgram({ name: 'Open Shop', partner_signup: 'open' })
  const joined = await page(`/join/${open.programId}`, { name: 'Sam', email: 'sam@partner.test' })
  expect(joined.text).toContain("what happens next was written to the server's log, where the owner of Open Shop reads it")

  const cookie = await signInAccount(api, approval.accountId)
  const applications = await page(`/dashboard/programs/${approval.programId}/applications`, undefined, cookie)
  expect(applications.text).toContain("This server has no SMTP_URL: the link was written to the server's log instead")
  // Nothing is lost: each email is recorded, as logged once written to stderr.
  let emails: { to: string; status: string }[] = []
  for (let i = 0; i < 100; i++) {
    emails = (await api.admin('GET', '/emails')).body.data
    if (emails.length > 0 && emails.every((e) => e.status === 'logged')) break
    await Bun.sleep(20)
  }
  expect(emails.map((e) => e.to)).toEqual(expect.arrayContaining(['pat@partner.test', 'sam@partner.test']))
  expect(emails.every((e) => e.status === 'logged')).toBe(true)
})
