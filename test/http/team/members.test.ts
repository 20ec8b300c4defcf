// docs/decisions.md, Teams and the audit log: an account's members through the operator API,
// their sign-in at /sign-in, and removal or a lower role taking effect on open sessions at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { followLink } from '../pages/sessions.ts'
import { addMember, linkOf, mailLine, open, signInInvited, unique } from './kit.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
})
afterAll(() => api.stop())

describe('the operator API of members', () => {
  test('POST answers 201 member_id, email, role; GET lists the owner first; the same email twice is 409', async () => {
    const f = await api.setupProgram()
    const email = `${unique('Ada')}@Team.test`
    const added = await api.admin('POST', `/accounts/${f.accountId}/members`, { email, role: 'viewer' })
    expect(added.status).toBe(201)
    expect(added.body.data).toMatchObject({ member_id: expect.any(Number), email, role: 'viewer' })
    const again = await api.admin('POST', `/accounts/${f.accountId}/members`, { email: email.toLowerCase(), role: 'admin' })
    expect(again.status).toBe(409)
    const listed = await api.admin('GET', `/accounts/${f.accountId}/members`)
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((m: { role: string }) => m.role)).toEqual(['owner', 'viewer'])
  })

  test('bad input is the documented 400 naming the field; unknown accounts and members are 404', async () => {
    const f = await api.setupProgram()
    for (const body of [{ email: 'x@y.test', role: 'owner' }, { email: 'x@y.test' }, { email: 'not an email', role: 'viewer' }, {}]) {
      const reply = await api.admin('POST', `/accounts/${f.accountId}/members`, body)
      expect({ body, status: reply.status }).toEqual({ body, status: 400 })
      expect(reply.body.error.message).toMatch(/email|role/)
    }
    expect((await api.admin('POST', '/accounts/999999/members', { email: 'x@y.test', role: 'viewer' })).status).toBe(404)
    expect((await api.admin('PATCH', '/members/999999', { role: 'admin' })).status).toBe(404)
    expect((await api.admin('DELETE', '/members/999999')).status).toBe(404)
    expect((await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data).toHaveLength(1)
  })

  test('the owner can be neither removed nor demoted: 409, and the owner stays', async () => {
    const f = await api.setupProgram()
    const owner = (await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data[0]
    expect(owner.role).toBe('owner')
    expect((await api.admin('PATCH', `/members/${owner.member_id}`, { role: 'viewer' })).status).toBe(409)
    expect((await api.admin('DELETE', `/members/${owner.member_id}`)).status).toBe(409)
    expect((await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data[0]).toEqual(owner)
  })

  test('the operator API refuses a wrong token', async () => {
    const f = await api.setupProgram()
    const reply = await api.call('GET', `/api/v1/admin/accounts/${f.accountId}/members`, { token: 'wrong' })
    expect(reply.status).toBe(401)
  })
})

describe('member sign-in and sessions', () => {
  test('an invited member gets a sign-in link by mail (the log line without SMTP) and signs in to the dashboard', async () => {
    const f = await api.setupProgram({ name: 'Team Shop' })
    const { email } = await addMember(api, f.accountId, 'viewer')
    const cookie = await signInInvited(api, email)
    const dashboard = await open(api, '/dashboard', cookie)
    expect(dashboard.status).toBe(200)
    expect(dashboard.text).toContain(email)
    expect(dashboard.text).toContain('Team Shop')
  })

  test('a member asks for a link at /sign-in with their email and signs in', async () => {
    const f = await api.setupProgram()
    const { email } = await addMember(api, f.accountId, 'admin')
    await mailLine(api, email, 'You were added to')
    const asked = await fetch(`${api.url}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': unique('10.9.') },
      body: new URLSearchParams({ email: email.toUpperCase() }).toString(),
    })
    expect(asked.status).toBe(200)
    const line = await mailLine(api, email, 'Your sign-in link for your svc dashboard')
    const opened = await followLink(api, linkOf(line))
    expect(opened.headers.get('location')).toBe('/dashboard')
    const cookie = opened.headers.get('set-cookie')!.split(';')[0] as string
    expect((await open(api, '/dashboard', cookie)).text).toContain(email)
  })

  test('removing a member ends their open sessions and unused links at once', async () => {
    const f = await api.setupProgram()
    const { memberId, email } = await addMember(api, f.accountId, 'admin')
    const cookie = await signInInvited(api, email)
    expect((await open(api, '/dashboard', cookie)).status).toBe(200)
    // A link asked for before the removal must not work after it either.
    await fetch(`${api.url}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': unique('10.8.') },
      body: new URLSearchParams({ email }).toString(),
    })
    const unused = linkOf(await mailLine(api, email, 'Your sign-in link for your svc dashboard'))
    const removed = await api.admin('DELETE', `/members/${memberId}`)
    expect(removed.status).toBe(200)
    expect(removed.body.data).toEqual({ member_id: memberId, removed: true })
    const after = await open(api, '/dashboard', cookie)
    expect(after.status).toBe(303)
    expect(after.location).toBe('/sign-in')
    expect((await followLink(api, unused)).status).toBe(410)
    expect((await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data).toHaveLength(1)
    // Invited again, they are a new member with a new session.
    const back = await addMember(api, f.accountId, 'viewer', email)
    expect(back.memberId).not.toBe(memberId)
  })

  test('a new role applies to an open session at its next request', async () => {
    const f = await api.setupProgram()
    const { memberId, email } = await addMember(api, f.accountId, 'admin')
    const cookie = await signInInvited(api, email)
    const settings = `/dashboard/programs/${f.programId}/settings`
    expect((await open(api, settings, cookie)).text).toContain(`action="${settings}"`)
    const changed = await api.admin('PATCH', `/members/${memberId}`, { role: 'viewer' })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({ member_id: memberId, role: 'viewer' })
    const after = await open(api, settings, cookie)
    expect(after.status).toBe(200)
    expect(after.text).not.toContain(`action="${settings}"`)
  })
})
