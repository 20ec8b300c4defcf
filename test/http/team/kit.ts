// What the team tests share: a server without SMTP (sign-in links reach the log), members added by
// the operator, and their browsers signed in through the emailed link.
import { expect } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { followLink } from '../pages/sessions.ts'

let n = 0
export const unique = (prefix: string) => `${prefix}${++n}${Math.random().toString(36).slice(2, 6)}`

/** The newest stderr mail line to `to` whose subject starts with `subject` (5 s at most), after `skip` earlier ones. */
export async function mailLine(api: Api, to: string, subject: string, skip = 0): Promise<string> {
  for (let i = 0; i < 250; i++) {
    const lines = api.announced.filter((l) => l.startsWith(`svc: mail to ${to}: ${subject}`))
    if (lines.length > skip) return lines[lines.length - 1] as string
    await Bun.sleep(20)
  }
  throw new Error(`no mail to ${to}: ${subject}`)
}

/** The link at the end of a mail line. */
export const linkOf = (line: string) => line.split(' ').at(-1) as string

/** Adds a member through the operator API; answers its id and email. */
export async function addMember(api: Api, accountId: number, role: 'admin' | 'viewer', email = `${unique(role)}@team.test`) {
  const added = await api.admin('POST', `/accounts/${accountId}/members`, { email, role })
  expect(added.status).toBe(201)
  return { memberId: added.body.data.member_id as number, email }
}

/** Signs a member in with the link of their invitation; answers the `svc_session=…` cookie pair. */
export async function signInInvited(api: Api, email: string): Promise<string> {
  const line = await mailLine(api, email, 'You were added to')
  const opened = await followLink(api, linkOf(line))
  expect(opened.status).toBe(303)
  expect(opened.headers.get('location')).toBe('/dashboard')
  return opened.headers.get('set-cookie')!.split(';')[0] as string
}

/** GET a page with a cookie, never following redirects. */
export async function open(api: Api, path: string, cookie: string) {
  const reply = await fetch(api.url + path, { redirect: 'manual', headers: { cookie } })
  return { status: reply.status, location: reply.headers.get('location'), text: await reply.text() }
}
