// docs/decisions.md, Hostile input (turn 3): who may be signed in to the partner portal, and for
// how long. A partner's sessions and unused links end when they are suspended, rejected or deleted
// (by the operator API or the dashboard) and stay ended; a session lasts 7 days. Each rule here was
// broken by hand once and seen to fail its test (docs/testing.md).
import { describe, expect, test } from 'bun:test'
import { type Api, days, minutes, startApi } from '../../helpers.ts'
import { cookieOf, type PortalKit, signedIn, signedOut, withPortalKit } from './portal-kit.ts'
import { followLink, publicOrigin, signInAccount } from './sessions.ts'

let kit: PortalKit
let api: Api
withPortalKit((started) => {
  kit = started
  api = started.api
})

describe('the session cookie', () => {
  test('two links made in a row both work, and a second browser signing in leaves the first signed in', async () => {
    const f = await api.setupProgram()
    const first = await kit.portalLink(f.programId, f.partnerId)
    api.clock.advance(minutes(1))
    const second = await kit.portalLink(f.programId, f.partnerId)
    const one = cookieOf(await followLink(api, first))
    api.clock.advance(minutes(1))
    const two = cookieOf(await followLink(api, second))
    expect([await kit.portal(one), await kit.portal(two)]).toEqual([signedIn, signedIn])
  })

  test('is read among other cookies, by its exact name, and only with a token of its shape', async () => {
    const f = await api.setupProgram()
    const cookie = cookieOf(await followLink(api, await kit.portalLink(f.programId, f.partnerId)))
    const value = cookie.slice('svc_session='.length)
    expect(await kit.portal(`theme=dark; ${cookie} ; lang=en`)).toEqual(signedIn)
    expect(await kit.portal(`svc_session = ${value}`)).toEqual(signedIn)
    for (const other of [
      `xsvc_session=${value}`,
      `svc_session_old=${value}`,
      `svc_session=${value}!`,
      `svc_session=!${value}`,
      `=${value}`,
    ]) {
      expect({ other, ...(await kit.portal(other)) }).toEqual({ other, ...signedOut })
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
    const partner = await kit.signedInPartner(f.programId, f.partnerId)
    expect(await kit.portal(partner.cookie)).toEqual(signedIn)
    const second = await kit.portalLink(f.programId, f.partnerId)
    expect((await kit.act(f.programId, f.partnerId, 'suspend')).status).toBe(200)
    expect(await kit.portal(partner.cookie)).toEqual(signedOut)
    // Used up at the suspension itself, not only refused while it lasts.
    expect((await followLink(api, second)).status).toBe(410)
    expect((await kit.act(f.programId, f.partnerId, 'unsuspend')).status).toBe(200)
    // The attack: a stolen cookie or a link in a mailbox comes back to life with the partner.
    await kit.expectEnded(partner)
    expect(await kit.portal(cookieOf(await followLink(api, await kit.portalLink(f.programId, f.partnerId))))).toEqual(signedIn)
  })

  test('rejecting an applicant ends their sessions and unused links; approving them later brings none back', async () => {
    const a = await kit.pendingApplicant()
    const partner = await kit.signedInPartner(a.programId, a.partnerId)
    expect((await kit.act(a.programId, a.partnerId, 'reject')).status).toBe(200)
    const [rejection] = await kit.mailsTo(a.email, 'did not accept your application')
    expect(rejection!.text).toContain('Their note: no')
    expect((await kit.act(a.programId, a.partnerId, 'approve')).status).toBe(200)
    await kit.expectEnded(partner)
  })

  test('approving an applicant makes them active, emailed with a sign-in link that works', async () => {
    const a = await kit.pendingApplicant()
    const approved = await kit.act(a.programId, a.partnerId, 'approve')
    expect(approved.body.data).toMatchObject({ partner_id: a.partnerId, status: 'active' })
    const [mail] = await kit.mailsTo(a.email, 'approved your application')
    expect(mail!.subject).toBe(`${a.programName} approved your application`)
    const link = mail!.text.match(/(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]!
    expect(await kit.portal(cookieOf(await followLink(api, link)))).toEqual(signedIn)
  })

  test("a suspended account's partners are refused while it lasts, and let in again after", async () => {
    const f = await api.setupProgram()
    const partner = await kit.signedInPartner(f.programId, f.partnerId)
    await api.admin('POST', `/accounts/${f.accountId}/suspend`)
    expect(await kit.portal(partner.cookie)).toEqual(signedOut)
    await api.admin('POST', `/accounts/${f.accountId}/unsuspend`)
    expect(await kit.portal(partner.cookie)).toEqual(signedIn)
  })

  test('deleting a partner through the operator API ends their sessions and unused links', async () => {
    const f = await api.setupProgram()
    const partner = await kit.signedInPartner(f.programId, f.partnerId)
    expect(await kit.portal(partner.cookie)).toEqual(signedIn)
    const deleted = await api.admin('DELETE', `/programs/${f.programId}/partners/${f.partnerId}`)
    expect(deleted.body).toEqual({ data: { partner_id: f.partnerId, deleted: true }, error: null })
    await kit.expectEnded(partner)
  })

  test('deleting a partner from the dashboard ends their sessions and unused links', async () => {
    const f = await api.setupProgram()
    const partner = await kit.signedInPartner(f.programId, f.partnerId)
    expect(await kit.portal(partner.cookie)).toEqual(signedIn)
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
    await kit.expectEnded(partner)
  })

  test('a partner who is not active is signed in to nothing, even through a link made after the change', async () => {
    const suspended = await api.setupProgram()
    await kit.act(suspended.programId, suspended.partnerId, 'suspend')
    const deleted = await api.setupProgram()
    await api.admin('DELETE', `/programs/${deleted.programId}/partners/${deleted.partnerId}`)
    const pending = await kit.pendingApplicant()
    for (const who of [suspended, deleted, pending]) {
      const opened = await followLink(api, await kit.portalLink(who.programId, who.partnerId))
      expect(await kit.portal(cookieOf(opened))).toEqual(signedOut)
    }
  })

  test('a session lasts 7 days: the cookie says so, it works until then and not a minute after', async () => {
    const f = await api.setupProgram()
    const opened = await followLink(api, await kit.portalLink(f.programId, f.partnerId))
    expect(opened.headers.get('set-cookie')).toMatch(/; Max-Age=604800(;|$)/)
    const cookie = cookieOf(opened)
    api.clock.advance(days(7) - minutes(1))
    expect(await kit.portal(cookie)).toEqual(signedIn)
    api.clock.advance(minutes(1))
    expect(await kit.portal(cookie)).toEqual(signedOut)
  })
})
