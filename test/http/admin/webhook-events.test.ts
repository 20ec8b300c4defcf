// docs/decisions.md, "Webhook delivery (decided in turn 4)": the event types commission.approved
// (a held commission approved), partner.created (any new partner, however made) and payout.failed
// (test/tracking/failed-payout.test.ts drives the function the payout rails
// will call), delivered to a real receiver and verified with the official standardwebhooks package.
import { describe, expect, test } from 'bun:test'
import type { Fixture } from '../../helpers.ts'
import { hookedServer } from '../../outbox/receiver.ts'
import { publicOrigin, signInAccount } from '../pages/sessions.ts'
import { unique } from '../track/kit.ts'

const server = hookedServer()

/** An endpoint of the program taking `events`; answers its id and secret. */
async function endpoint(f: Fixture, events: string[]) {
  const { api, receiver } = server
  const made = await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: receiver.url, events })
  expect(made.status).toBe(201)
  return made.body.data as { webhook_id: number; secret: string }
}

/** The verified payloads of `type` for the program, once `count` of them have arrived. */
async function received(f: Fixture, type: string, count: number, secret: string) {
  const { receiver } = server
  const mine = () => receiver.hits.filter((h) => h.json.type === type && h.json.data.program_id === f.programId)
  await receiver.waitFor(() => mine().length >= count)
  return mine().map((hit) => receiver.verify(hit, secret) as { type: string; data: Record<string, any> })
}

describe('commission.approved', () => {
  test('approving a held commission sends commission.approved with the commission as it now stands', async () => {
    const { api, k } = server
    const f = await api.setupProgram({ holding_period_days: 0 })
    const hook = await endpoint(f, ['commission.approved'])
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { email: 'ann@acme-corp.com' })
    const key = unique('c')
    const click = await k.click(f)
    expect((await k.lead(f, { click_id: click.body.click_id, customer_key: key, email: 'bob@acme-corp.com' })).status).toBe(200)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: 10000 })).status).toBe(200)
    const held = (await api.admin('GET', `/programs/${f.programId}/commissions?limit=1`)).body.data[0]
    expect(held).toMatchObject({ status: 'held', flags: ['self_referral'] })
    expect((await api.admin('POST', `/commissions/${held.commission_id}/approve`)).status).toBe(200)
    const [event] = await received(f, 'commission.approved', 1, hook.secret)
    expect(event!.data).toMatchObject({
      commission_id: held.commission_id,
      program_id: f.programId,
      status: 'due',
      review: 'approved',
      amount_cents: 1000,
    })
  })
})

describe('partner.created', () => {
  test('a partner made by the operator API, the dashboard, the join page or the CLI test chain is a partner.created', async () => {
    const { api } = server
    const f = await api.setupProgram({ partner_signup: 'open' })
    const hook = await endpoint(f, ['partner.created'])
    const byApi = await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'By API' })
    const joined = await api.call('POST', `/join/${f.programId}`, { body: { name: 'By Join', email: `${unique('j')}@p.test` } })
    expect(joined.status).toBe(202)
    // The dashboard's form, as the owner's browser posts it.
    const cookie = await signInAccount(api, f.accountId)
    const page = await (await fetch(`${api.url}/dashboard`, { headers: { cookie } })).text()
    const csrf = page.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const posted = await fetch(`${api.url}/dashboard/programs/${f.programId}/partners`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, name: 'By Dashboard', email: '' }).toString(),
    })
    expect(posted.status).toBe(303)
    const chain = await api.call('POST', '/api/v1/cli/test-event', { token: f.apiKey, body: { type: 'chain' } })
    expect(chain.status).toBe(200)
    // A second chain reuses the test partner: nothing new.
    await api.call('POST', '/api/v1/cli/test-event', { token: f.apiKey, body: { type: 'chain' } })
    const events = await received(f, 'partner.created', 4, hook.secret)
    await Bun.sleep(200)
    expect((await received(f, 'partner.created', 4, hook.secret)).length).toBe(4)
    expect(events.map((e) => e.data.name).sort()).toEqual(['By API', 'By Dashboard', 'By Join', 'svc test partner'])
    expect(events.find((e) => e.data.name === 'By API')!.data).toMatchObject({
      partner_id: byApi.body.data.partner_id,
      status: 'active',
      program_id: f.programId,
    })
  })
})
