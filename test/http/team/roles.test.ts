// docs/decisions.md, Teams and the audit log: each role against every dashboard page and form. The
// routes come from the route table (page-rows.ts), so a new dashboard page or form without a
// declared role fails here, and one whose handler skips the guard fails the checks by role.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Role } from '../../../src/domain/role.ts'
import { pageRows } from '../../../src/http/pipeline/page-rows.ts'
import { type Api, type Fixture, startApi } from '../../helpers.ts'
import { signInAccount } from '../pages/sessions.ts'
import { addMember, signInInvited } from './kit.ts'

let api: Api
let f: Fixture
const cookies = {} as Record<Role, string>
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
  f = await api.setupProgram()
  cookies.owner = await signInAccount(api, f.accountId)
  cookies.admin = await signInInvited(api, (await addMember(api, f.accountId, 'admin')).email)
  cookies.viewer = await signInInvited(api, (await addMember(api, f.accountId, 'viewer')).email)
})
afterAll(() => api.stop())

const dashboardRows = Object.entries(pageRows).filter(([key]) => key.split(' ')[1]!.startsWith('/dashboard') && !key.endsWith('/*'))
const ROLES: Role[] = ['viewer', 'admin', 'owner']
const rank = (role: Role) => ROLES.indexOf(role)

/** A route's path with ids of the fixture (the guard answers before any id is looked up). */
const pathOf = (template: string) =>
  template.replace(':id', String(f.programId)).replace(':partner_id', String(f.partnerId)).replace(/:\w+/g, '1')

const request = (method: string, path: string, cookie: string) =>
  fetch(api.url + path, {
    method,
    redirect: 'manual',
    headers: { cookie, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    // No form token: a post the role may send reaches the same-site check ("Refused"), one it may not is refused by role first.
    body: method === 'POST' ? '' : undefined,
  })

/** Each post form of a page: its action. */
const postForms = (html: string) =>
  [...html.matchAll(/<form\b[^>]*\bmethod="post"[^>]*>/g)]
    .map(([tag]) => tag.match(/action="([^"]*)"/)?.[1] ?? '')
    .filter((a) => a !== '/sign-out')

test('every dashboard page and form declares the least role that may use it', () => {
  const missing = dashboardRows.filter(([, route]) => route.role === undefined).map(([key]) => key)
  expect(missing).toEqual([])
  // The decision's owner-only actions, and the Team page, are the owner's.
  expect(pageRows['POST /dashboard/programs/:id/settings/api-key']?.role).toBe('owner')
  for (const key of Object.keys(pageRows).filter((k) => k.includes('/dashboard/team'))) expect(pageRows[key]?.role).toBe('owner')
  // A viewer reads everything and changes nothing.
  const viewerWrites = dashboardRows.filter(([key, route]) => !key.startsWith('GET ') && route.role === 'viewer').map(([key]) => key)
  expect(viewerWrites).toEqual([])
})

describe.each(ROLES)('as %s', (role) => {
  test.each(dashboardRows.map(([key, route]) => [key, route.role!] as const))('%s', async (key, needed) => {
    const [method, template] = key.split(' ') as [string, string]
    const reply = await request(method, pathOf(template), cookies[role])
    const text = await reply.text()
    if (rank(role) < rank(needed)) {
      expect({ key, status: reply.status }).toEqual({ key, status: 403 })
      expect(text).toContain('Not allowed')
      return
    }
    if (method === 'POST') {
      // Past the role check, the form token is the next gate.
      expect({ key, status: reply.status, refused: text.includes('Refused') }).toEqual({ key, status: 403, refused: true })
      return
    }
    expect({ key, status: reply.status }).toEqual({ key, status: 200 })
    // The page offers only the forms this role may send (and every form it offers is a declared route).
    for (const action of postForms(text)) {
      const route = Object.entries(pageRows).find(
        ([k]) => k.startsWith('POST ') && new RegExp(`^${k.slice(5).replace(/:\w+/g, '[^/]+')}$`).test(action),
      )
      expect({ action, declared: route?.[1].role !== undefined }).toEqual({ action, declared: true })
      expect({ action, allowed: rank(role) >= rank(route![1].role!) }).toEqual({ action, allowed: true })
    }
    if (role === 'viewer') expect({ key, forms: postForms(text) }).toEqual({ key, forms: [] })
  })
})

test('the owner sees the forms a viewer does not: the pages do offer them', async () => {
  for (const path of [`/dashboard/programs/${f.programId}/settings`, `/dashboard/programs/${f.programId}/partners/${f.partnerId}`]) {
    const owner = postForms(await (await request('GET', path, cookies.owner)).text())
    const admin = postForms(await (await request('GET', path, cookies.admin)).text())
    expect(owner.length).toBeGreaterThan(0)
    expect(admin.length).toBeGreaterThan(0)
    if (path.endsWith('/settings')) {
      expect(owner).toContain(`/dashboard/programs/${f.programId}/settings/api-key`)
      expect(admin).not.toContain(`/dashboard/programs/${f.programId}/settings/api-key`)
    }
  }
  const dashboard = await (await request('GET', '/dashboard', cookies.owner)).text()
  expect(dashboard).toContain('href="/dashboard/team"')
  expect(await (await request('GET', '/dashboard', cookies.admin)).text()).not.toContain('href="/dashboard/team"')
})
