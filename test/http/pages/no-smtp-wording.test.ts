// docs/decisions.md, Email: without SMTP_URL nothing is sent, and every page or answer that would
// have sent a link says how else to get one. This file holds today's words, in one test, so that
// the change decided in "The first hour" ("the link was written to the server's log") updates
// only here.
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

test("without SMTP_URL, each page that would email a link says so and names who gives it instead (today's wording)", async () => {
  const owners = await page('/sign-in')
  expect(owners.text).toContain("This server sends no email: ask the server's operator for a sign-in link.")
  expect(owners.text).not.toContain('Email me a sign-in link')
  const partners = await page('/partner/sign-in')
  expect(partners.text).toContain("This server sends no email: ask the program's owner for a portal sign-in link.")
  expect(partners.text).not.toContain('Email me a sign-in link')
  for (const path of ['/sign-in', '/partner/sign-in']) {
    const asked = await page(path, { email: 'someone@shop.test' })
    expect({ path, status: asked.status, says: asked.text.includes('This server sends no email.') }).toEqual({
      path,
      status: 200,
      says: true,
    })
  }

  const approval = await api.setupProgram({ name: 'Quiet Shop', partner_signup: 'approval' })
  const pending = await page(`/join/${approval.programId}`, { name: 'Pat', email: 'pat@partner.test' })
  expect(pending.text).toContain(
    "Ask Quiet Shop's owner about your application: they will give you your portal sign-in link once approved.",
  )
  const open = await api.setupProgram({ name: 'Open Shop', partner_signup: 'open' })
  const joined = await page(`/join/${open.programId}`, { name: 'Sam', email: 'sam@partner.test' })
  expect(joined.text).toContain("Ask Open Shop's owner for your portal sign-in link")

  const cookie = await signInAccount(api, approval.accountId)
  const applications = await page(`/dashboard/programs/${approval.programId}/applications`, undefined, cookie)
  expect(applications.text).toContain('This server sends no email: after approving, send the partner a portal link from their page.')
  // Nothing was queued for anyone.
  expect((await api.admin('GET', '/emails')).body.data).toEqual([])
})
