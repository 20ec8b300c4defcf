// docs/decisions.md, Teams and the audit log (and Turn 4, settled): each action of the decision
// writes one entry, by whoever did it (a member's email, `operator`, `key:<id>:<scope>`), with the
// raw IP of the request; tracking writes none; a refused or failed action writes none; the
// operator route lists a program's entries and its account's member events, newest first, by
// pages and filters; the Activity page shows them to every role.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api, type Fixture } from '../../helpers.ts'
import { signInAccount } from '../pages/sessions.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'
import { addMember, open, signInInvited } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => {
  ;({ api, k } = await trackingSetup(undefined, { TRUST_PROXY: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }))
})
afterAll(() => api.stop())

const OPERATOR_IP = '198.51.100.23'
const MEMBER_IP = '2001:db8:0:0:1234:5678:9abc:def0'

type Entry = {
  audit_id: number
  at: string
  actor: string
  action: string
  object_type: string
  object_id: string
  ip: string | null
  details: Record<string, unknown>
}

/** The operator API from `OPERATOR_IP`. */
const operator = (method: string, path: string, body?: unknown) =>
  api.call(method, `/api/v1/admin${path}`, { body, token: ADMIN_TOKEN, headers: { 'x-forwarded-for': OPERATOR_IP } })

/** A dashboard form sent as the browser of `cookie` from `MEMBER_IP` (its form token read from the dashboard). */
async function form(cookie: string, path: string, fields: Record<string, string> = {}) {
  const csrf = (await open(api, '/dashboard', cookie)).text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
  const reply = await fetch(api.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie,
      origin: new URL(api.server.deps.config.publicBaseUrl).origin,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': MEMBER_IP,
    },
    body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
  })
  await reply.text()
  return reply.status
}

async function entries(f: Fixture, query = ''): Promise<Entry[]> {
  const reply = await api.admin('GET', `/programs/${f.programId}/audit?limit=200${query}`)
  expect(reply.status).toBe(200)
  return reply.body.data
}

/** A commission held for review (a click from a paid ad), and its id. */
async function held(f: Fixture, amount = 10_000): Promise<number> {
  const click = await k.click(
    f,
    { affiliate_url: `https://shop.test/?aff=${f.shortLink}&gclid=1` },
    { 'x-forwarded-for': `203.0.113.${(amount % 200) + 1}` },
  )
  const key = unique('c')
  expect((await k.lead(f, { click_id: click.body.click_id, customer_key: key })).status).toBe(200)
  expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: amount })).status).toBe(200)
  const latest = (await api.admin('GET', `/programs/${f.programId}/commissions?limit=1`)).body.data[0]
  expect(latest.status).toBe('held')
  return latest.commission_id
}

describe('an entry for each action of the decision', () => {
  let f: Fixture, owner: string, adminCookie: string, adminEmail: string, memberId: number
  beforeAll(async () => {
    f = await api.setupProgram({ holding_period_days: 0, partner_signup: 'approval' })
    owner = await signInAccount(api, f.accountId)
    const added = await addMember(api, f.accountId, 'admin')
    adminEmail = added.email
    memberId = added.memberId
    adminCookie = await signInInvited(api, adminEmail)
  })

  test('tracking writes no entry: clicks, leads and sales are not audited', async () => {
    const before = (await entries(f)).length
    await held(f, 5000)
    expect(await entries(f)).toHaveLength(before)
  })

  test('review: approve by the operator, reject by a member, approve by the CLI with the manage key', async () => {
    const a = await held(f, 10_000)
    const b = await held(f, 20_000)
    const c = await held(f, 30_000)
    expect((await operator('POST', `/commissions/${a}/approve`)).status).toBe(200)
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/review/${b}`, { action: 'reject', reason: 'own card' })).toBe(303)
    const manage = (await api.admin('GET', `/programs/${f.programId}/keys`)).body.data.find(
      (key: { scope: string }) => key.scope === 'manage',
    )
    const viaCli = await api.call('POST', `/api/v1/cli/commissions/${c}/approve`, {
      token: f.apiKey,
      headers: { 'x-forwarded-for': '192.0.2.44' },
    })
    expect(viaCli.status).toBe(200)
    const got = (await entries(f, '&action=commission.')).slice(0, 3).reverse()
    expect(got.map(({ actor, action, object_type, object_id, ip }) => ({ actor, action, object_type, object_id, ip }))).toEqual([
      { actor: 'operator', action: 'commission.approve', object_type: 'commission', object_id: String(a), ip: OPERATOR_IP },
      { actor: adminEmail, action: 'commission.reject', object_type: 'commission', object_id: String(b), ip: MEMBER_IP },
      {
        actor: `key:${manage.key_id}:manage`,
        action: 'commission.approve',
        object_type: 'commission',
        object_id: String(c),
        ip: '192.0.2.44',
      },
    ])
    expect(got[1]!.details).toMatchObject({ partner_id: f.partnerId, amount_cents: 2000, currency: 'USD', reason: 'own card' })
  })

  test('payouts: run by a member, paid by the operator, cancelled by a member; a refused paid writes nothing', async () => {
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/payouts`)).toBe(303)
    const [run] = await entries(f, '&action=payout.run')
    expect(run).toMatchObject({
      actor: adminEmail,
      object_type: 'payout',
      ip: MEMBER_IP,
      details: { partner_id: f.partnerId, currency: 'USD' },
    })
    const payoutId = Number(run!.object_id)
    expect((await operator('POST', `/payouts/${payoutId}/paid`, { reference: 'wire 42' })).status).toBe(200)
    const [paid] = await entries(f, '&action=payout.paid')
    expect(paid).toMatchObject({
      actor: 'operator',
      object_id: String(payoutId),
      ip: OPERATOR_IP,
      details: { reference: 'wire 42', amount_cents: run!.details.amount_cents },
    })
    // A paid payout cannot be cancelled: 409, and no entry.
    expect((await operator('POST', `/payouts/${payoutId}/cancel`)).status).toBe(409)
    expect(await entries(f, '&action=payout.cancel')).toEqual([])
    await operator('POST', `/commissions/${await held(f, 40_000)}/approve`)
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/payouts`)).toBe(303)
    const [second] = await entries(f, '&action=payout.run')
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/payouts/${second!.object_id}/cancel`)).toBe(303)
    const [cancel] = await entries(f, '&action=payout.cancel')
    expect(cancel).toMatchObject({
      actor: adminEmail,
      object_id: second!.object_id,
      details: { amount_cents: second!.details.amount_cents },
    })
    // Cancelled already: a repeat changes nothing and writes nothing.
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/payouts/${second!.object_id}/cancel`)).toBe(303)
    expect(await entries(f, '&action=payout.cancel')).toHaveLength(1)
  })

  test('settings and keys: what changed, never a secret', async () => {
    expect(
      (await operator('PATCH', `/programs/${f.programId}`, { name: 'Renamed Shop', stripe_webhook_secret: 'whsec_topsecret' })).status,
    ).toBe(200)
    expect(
      await form(adminCookie, `/dashboard/programs/${f.programId}/settings/origins`, { allowed_origins: 'https://app.shop.test' }),
    ).toBe(303)
    const settings = (await entries(f, '&action=settings.update')).reverse()
    expect(settings.map((e) => [e.actor, e.details])).toEqual([
      ['operator', { name: { from: expect.stringMatching(/^Program/), to: 'Renamed Shop' }, stripe_webhook_secret: 'replaced' }],
      [adminEmail, { allowedOrigins: { from: [], to: ['https://app.shop.test'] } }],
    ])
    expect(JSON.stringify(await entries(f))).not.toContain('whsec_topsecret')
    // Regenerating is the owner's: an admin's post is refused and writes nothing.
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/settings/api-key`)).toBe(403)
    expect(await entries(f, '&action=key.regenerate')).toEqual([])
    expect(await form(owner, `/dashboard/programs/${f.programId}/settings/api-key`)).toBe(200)
    const ownerEmail = (await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data[0].email
    expect((await entries(f, '&action=key.regenerate'))[0]).toMatchObject({
      actor: ownerEmail,
      ip: MEMBER_IP,
      details: { scope: 'manage' },
    })
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/settings/keys`, { name: 'web' })).toBe(200)
    const [made] = await entries(f, '&action=key.create')
    expect(made).toMatchObject({ actor: adminEmail, object_type: 'key', details: { scope: 'track', name: 'web' } })
    expect((await operator('DELETE', `/keys/${made!.object_id}`)).status).toBe(200)
    expect((await entries(f, '&action=key.delete'))[0]).toMatchObject({ actor: 'operator', object_id: made!.object_id })
    expect((await operator('POST', `/programs/${f.programId}/api-key/rotation`, { rotate_by: '2027-01-01' })).status).toBe(200)
    expect((await entries(f, '&action=key.rotation'))[0]).toMatchObject({
      actor: 'operator',
      details: { rotate_by: '2027-01-01T00:00:00.000Z' },
    })
  })

  test('partners: approve, reject, suspend, reactivate and delete', async () => {
    const apply = async () => {
      const email = `${unique('applicant')}@partner.test`
      await api.call('POST', `/join/${f.programId}`, {
        body: { name: 'Applicant', email },
        headers: { 'x-forwarded-for': unique('10.1.') },
      })
      const pending = (await api.admin('GET', `/programs/${f.programId}/partners?status=pending`)).body.data
      return pending.find((p: { email: string }) => p.email === email).partner_id as number
    }
    const one = await apply()
    const two = await apply()
    const base = `/dashboard/programs/${f.programId}/partners`
    expect(await form(adminCookie, `${base}/${one}/status`, { action: 'approve' })).toBe(303)
    expect((await operator('POST', `/programs/${f.programId}/partners/${two}/reject`, { reason: 'spam' })).status).toBe(200)
    expect(await form(adminCookie, `${base}/${one}/status`, { action: 'suspend' })).toBe(303)
    expect((await operator('POST', `/programs/${f.programId}/partners/${one}/unsuspend`)).status).toBe(200)
    expect(await form(adminCookie, `${base}/${two}/delete`)).toBe(303)
    const got = (await entries(f, '&action=partner.')).reverse()
    expect(got.map((e) => [e.actor, e.action, e.object_id])).toEqual([
      [adminEmail, 'partner.approve', String(one)],
      ['operator', 'partner.reject', String(two)],
      [adminEmail, 'partner.suspend', String(one)],
      ['operator', 'partner.reactivate', String(one)],
      [adminEmail, 'partner.delete', String(two)],
    ])
    expect(got[1]!.details).toEqual({ from: 'pending', to: 'rejected', reason: 'spam' })
  })

  test('partner changes: where the money goes and at what rate, by a member or the operator, with what changed', async () => {
    const base = `/dashboard/programs/${f.programId}/partners/${f.partnerId}`
    const fields = { name: 'Ada', email: '', commission_type: '', commission_rate: '', recurring_months: '' }
    expect(await form(adminCookie, base, { ...fields, payout_method: 'paypal', payout_details: 'insider@evil.test' })).toBe(303)
    expect((await operator('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { commission_rate: 12 })).status).toBe(200)
    const got = (await entries(f, '&action=partner.update')).reverse()
    expect(got.map((e) => [e.actor, e.object_id, e.ip])).toEqual([
      [adminEmail, String(f.partnerId), MEMBER_IP],
      ['operator', String(f.partnerId), OPERATOR_IP],
    ])
    expect(got[0]!.details).toMatchObject({
      payoutMethod: { from: null, to: 'paypal' },
      payoutDetails: { from: null, to: 'insider@evil.test' },
    })
    expect(got[1]!.details).toEqual({ commissionRate: { from: null, to: 12 } })
  })

  test("members: added, given a role and removed, by the owner's Team page or the operator, in the program's log", async () => {
    const viewerEmail = `${unique('viewer')}@team.test`
    expect(await form(owner, '/dashboard/team', { email: viewerEmail, role: 'viewer' })).toBe(303)
    const viewer = (await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data.find(
      (m: { email: string }) => m.email === viewerEmail,
    )
    expect(await form(owner, `/dashboard/team/${viewer.member_id}/role`, { role: 'admin' })).toBe(303)
    expect((await operator('DELETE', `/members/${viewer.member_id}`)).status).toBe(200)
    const got = (await entries(f, '&action=member.')).reverse()
    const ownerEmail = (await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data[0].email
    expect(got.map((e) => [e.actor, e.action, e.object_id, e.details])).toEqual([
      ['operator', 'member.add', String(memberId), { email: adminEmail, role: 'admin' }],
      [ownerEmail, 'member.add', String(viewer.member_id), { email: viewerEmail, role: 'viewer' }],
      [ownerEmail, 'member.role', String(viewer.member_id), { email: viewerEmail, from: 'viewer', to: 'admin' }],
      ['operator', 'member.remove', String(viewer.member_id), { email: viewerEmail, role: 'admin' }],
    ])
    // An admin cannot manage the team: 403, nothing written.
    expect(await form(adminCookie, '/dashboard/team', { email: `${unique('x')}@team.test`, role: 'viewer' })).toBe(403)
    expect(await entries(f, '&action=member.add')).toHaveLength(2)
  })

  test('webhook endpoints: created, turned off, secret replaced, deleted', async () => {
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/webhooks`, { url: 'http://127.0.0.1:9/hooks' })).toBe(200)
    const [created] = await entries(f, '&action=webhook.create')
    expect(created).toMatchObject({ actor: adminEmail, object_type: 'webhook', details: { url: 'http://127.0.0.1:9/hooks' } })
    const id = created!.object_id
    expect(await form(adminCookie, `/dashboard/programs/${f.programId}/webhooks/${id}/active`, { active: 'false' })).toBe(303)
    expect((await operator('POST', `/webhooks/${id}/secret`)).status).toBe(200)
    expect((await operator('DELETE', `/webhooks/${id}`)).status).toBe(200)
    const got = (await entries(f, '&action=webhook.')).reverse()
    expect(got.map((e) => [e.actor, e.action, e.details])).toEqual([
      [adminEmail, 'webhook.create', { url: 'http://127.0.0.1:9/hooks', events: expect.any(Array) }],
      [adminEmail, 'webhook.update', { active: false }],
      ['operator', 'webhook.secret', {}],
      ['operator', 'webhook.delete', { url: 'http://127.0.0.1:9/hooks' }],
    ])
    expect(JSON.stringify(got)).not.toContain('whsec_')
  })
})

describe('the operator route and the Activity page', () => {
  test('newest first, by pages of `limit` with next_cursor; filters by who, what and dates; 400 and 404 as documented', async () => {
    const f = await api.setupProgram()
    for (let i = 0; i < 5; i++) {
      await operator('PATCH', `/programs/${f.programId}`, { name: `Name ${i}` })
      api.clock.advance(86_400_000)
    }
    const first = await api.admin('GET', `/programs/${f.programId}/audit?limit=2`)
    expect(first.body.data.map((e: Entry) => e.details.name)).toEqual([
      { from: 'Name 3', to: 'Name 4' },
      { from: 'Name 2', to: 'Name 3' },
    ])
    const second = await api.admin('GET', `/programs/${f.programId}/audit?limit=2&cursor=${first.body.next_cursor}`)
    expect(second.body.data.map((e: Entry) => (e.details.name as { to: string }).to)).toEqual(['Name 2', 'Name 1'])
    const last = await api.admin('GET', `/programs/${f.programId}/audit?limit=2&cursor=${second.body.next_cursor}`)
    expect(last.body.data).toHaveLength(1)
    expect(last.body.next_cursor).toBeNull()
    const day = (n: number) => new Date(api.clock.now() - n * 86_400_000).toISOString().slice(0, 10)
    expect((await entries(f, `&from=${day(3)}&to=${day(2)}`)).map((e) => (e.details.name as { to: string }).to)).toEqual([
      'Name 3',
      'Name 2',
    ])
    expect(await entries(f, '&actor=OPERATOR')).toHaveLength(5)
    expect(await entries(f, '&actor=someone')).toHaveLength(0)
    expect(await entries(f, '&action=payout.')).toHaveLength(0)
    expect((await api.admin('GET', `/programs/${f.programId}/audit?action=drop table`)).status).toBe(400)
    expect((await api.admin('GET', `/programs/${f.programId}/audit?from=yesterday`)).status).toBe(400)
    expect((await api.admin('GET', '/programs/999999/audit')).status).toBe(404)
    // Nothing updates or deletes an entry: no such route.
    for (const method of ['PATCH', 'DELETE', 'PUT', 'POST'])
      expect((await api.admin(method, `/programs/${f.programId}/audit`)).status).toBe(404)
  })

  test('a viewer reads the Activity page and filters it by who and what', async () => {
    const f = await api.setupProgram()
    const { email } = await addMember(api, f.accountId, 'viewer')
    const cookie = await signInInvited(api, email)
    await operator('PATCH', `/programs/${f.programId}`, { name: 'Shop <b>&</b>' })
    const page = await open(api, `/dashboard/programs/${f.programId}/activity`, cookie)
    expect(page.status).toBe(200)
    expect(page.text).toContain('settings.update')
    expect(page.text).toContain('member.add')
    expect(page.text).toContain(OPERATOR_IP)
    expect(page.text).not.toContain('<b>&</b>')
    const filtered = await open(api, `/dashboard/programs/${f.programId}/activity?actor=operator&action=member.`, cookie)
    expect(filtered.text).toContain('member.add</b>')
    expect(filtered.text).not.toContain('settings.update</b>')
    const bad = await open(api, `/dashboard/programs/${f.programId}/activity?from=not-a-date`, cookie)
    expect(bad.status).toBe(200)
    expect(bad.text).toContain('role="alert"')
  })
})
