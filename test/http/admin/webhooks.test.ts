// docs/decisions.md, "Outbound webhooks": endpoints through the operator API, every event type's
// body, signatures verified with the official `standardwebhooks` package by a real receiver,
// retries as the injected clock moves, a receiver that fails, hangs or resets, rotation, SSRF.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { isPrivateAddress } from '../../../src/domain/address.ts'
import { type Api, startApi } from '../../helpers.ts'
import { type Hit, type Receiver, startReceiver } from '../../outbox/receiver.ts'
import { type Kit, kit, unique } from '../track/kit.ts'

let api: Api
let k: Kit
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
  api = await startApi({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', SVC_RATE_LIMIT_SCALE: '1000' } })
  k = kit(api)
})
afterAll(async () => {
  await api.stop()
  await receiver.close()
})

const ALL = [
  'lead.created',
  'sale.created',
  'sale.refunded',
  'commission.created',
  'commission.reversed',
  'commission.held',
  'commission.approved',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'partner.created',
  'partner.applied',
  'partner.approved',
  'webhook.test',
]

async function endpoint(programId: number, body: Record<string, unknown> = {}) {
  const made = await api.admin('POST', `/programs/${programId}/webhooks`, { url: receiver.url, ...body })
  expect(made.status).toBe(201)
  return made.body.data as { webhook_id: number; secret: string; events: string[] }
}

const deliveries = async (id: number, query = '') => (await api.admin('GET', `/webhooks/${id}/deliveries${query}`)).body.data as any[]

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, step?: () => void): Promise<T> {
  let value = await read()
  for (let i = 0; i < 250 && !done(value); i++) {
    step?.()
    await Bun.sleep(20)
    value = await read()
  }
  return value
}

describe('endpoints', () => {
  test('create answers 201 with the secret once; the list and changes never show it; events default to every type', async () => {
    const f = await api.setupProgram()
    const made = await endpoint(f.programId, { description: 'CRM' })
    expect(made).toMatchObject({ url: receiver.url, events: ALL, description: 'CRM', active: true })
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(made.secret.slice(6), 'base64')).toHaveLength(32)
    const listed = await api.admin('GET', `/programs/${f.programId}/webhooks`)
    expect(listed.body.data).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(made.secret)
    const changed = await api.admin('PATCH', `/webhooks/${made.webhook_id}`, { events: ['sale.created'], active: false })
    expect(changed.body.data).toMatchObject({ webhook_id: made.webhook_id, events: ['sale.created'], active: false })
    expect(changed.body.data).not.toHaveProperty('secret')
    const gone = await api.admin('DELETE', `/webhooks/${made.webhook_id}`)
    expect(gone.body.data).toEqual({ webhook_id: made.webhook_id, deleted: true })
    expect((await api.admin('GET', `/webhooks/${made.webhook_id}/deliveries`)).status).toBe(404)
    expect((await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: receiver.url, events: ['nope'] })).status).toBe(400)
    expect((await api.admin('PATCH', '/webhooks/999999', { active: true })).status).toBe(404)
  })
})

describe('events, signatures and bodies', () => {
  test('every change of a program reaches its endpoint once, signed and verified by standardwebhooks', async () => {
    const f = await api.setupProgram({ holding_period_days: 0, partner_signup: 'open' })
    const hook = await endpoint(f.programId)
    const start = receiver.hits.length
    const key = unique('hooked')
    await k.customer(f, key)
    const txn = unique('txn')
    const sale = await k.sale(f, { transaction_id: txn, customer_key: key, amount_cents: 10000 })
    expect((await k.refund(f, { transaction_id: txn })).status).toBe(200)
    const key2 = unique('hooked')
    await k.customer(f, key2)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key2, amount_cents: 5000 })).status).toBe(200)
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    await api.admin('POST', `/payouts/${run.body.data[0].payout_id}/paid`, { reference: 'W-1' })
    await api.call('POST', `/join/${f.programId}`, { body: { name: 'Jo', email: `${unique('jo')}@p.test` } })
    const test_ = await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    expect(test_.body.data).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1, last_status_code: 200 })

    const expected = [
      'lead.created',
      'sale.created',
      'commission.created',
      'sale.refunded',
      'commission.reversed',
      'lead.created',
      'sale.created',
      'commission.created',
      'payout.created',
      'payout.paid',
      'partner.created',
      'partner.applied',
      'partner.approved',
      'webhook.test',
    ]
    const hits = (await receiver.waitFor((h) => h.length - start >= expected.length)).slice(start)
    expect(hits.map((h) => h.json.type).sort()).toEqual([...expected].sort())
    for (const hit of hits) {
      expect(receiver.verify(hit, hook.secret)).toEqual(hit.json)
      expect(hit.id).toMatch(/^evt_/)
      expect(hit.contentType).toBe('application/json')
      expect(Math.abs(Number(hit.timestamp) - Date.now() / 1000)).toBeLessThan(60)
      expect(Object.keys(hit.json).sort()).toEqual(['data', 'timestamp', 'type'])
      expect(hit.json.data.program_id).toBe(f.programId)
    }
    expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length)
    const body = (type: string) => hits.find((h) => h.json.type === type)!.json.data
    expect(body('sale.created')).toMatchObject({
      sale_id: sale.body.data.sale_id,
      transaction_id: txn,
      amount_cents: 10000,
      attribution: { rule: 'first_click' },
    })
    expect(body('commission.created')).toMatchObject({ kind: 'commission', amount_cents: 1000, status: 'due', flags: [] })
    expect(body('commission.reversed')).toMatchObject({ kind: 'reversal', amount_cents: -1000, sale_id: sale.body.data.sale_id })
    expect(body('sale.refunded')).toMatchObject({ transaction_id: txn, status: 'refunded' })
    expect(body('lead.created')).toMatchObject({ status: 'lead' })
    expect(body('payout.created')).toMatchObject({ payout_id: run.body.data[0].payout_id, status: 'pending' })
    expect(body('payout.paid')).toMatchObject({ status: 'paid', reference: 'W-1' })
    expect(body('partner.created')).toMatchObject({ name: 'Jo' })
    expect(body('partner.applied')).toMatchObject({ name: 'Jo', status: 'active' })
    expect(body('partner.approved')).toMatchObject({ name: 'Jo', status: 'active' })
    // The deliveries route reads the same story, once the attempts are recorded (after the 2xx).
    const listed = await until(
      () => deliveries(hook.webhook_id, '?status=delivered&limit=200'),
      (rows) => rows.length === expected.length,
    )
    expect(listed).toHaveLength(expected.length)
    expect(listed[0]).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null })
  })

  test('a test sent right after a sale is the newest delivery listed, the sale pending or sent below it', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['sale.created', 'webhook.test'] })
    const key = unique('c')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key })).status).toBe(200)
    expect((await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)).status).toBe(200)
    expect((await deliveries(hook.webhook_id)).map((d) => d.type)).toEqual(['webhook.test', 'sale.created'])
  })

  test('an endpoint gets only the types it took; test data says test_mode: true', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['sale.created'] })
    const start = receiver.hits.length
    const key = unique('c')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, livemode: false })).status).toBe(200)
    const hits = (await receiver.waitFor((h) => h.length > start)).slice(start)
    await Bun.sleep(150)
    expect(receiver.hits.slice(start).map((h) => h.json.type)).toEqual(['sale.created'])
    expect(hits[0]!.json.data.test_mode).toBe(true)
    expect(receiver.verify(hits[0]!, hook.secret)).toBeTruthy()
  })
})

describe('delivery failures', () => {
  test('a 500 is retried after 5 s with the same webhook-id; a reset and a silent receiver are failed attempts', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['webhook.test'] })
    for (const mode of [500, 'reset', 'silent'] as const) {
      receiver.state.mode = mode
      const start = receiver.hits.length
      const first = await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
      expect(first.body.data).toMatchObject({ status: 'pending', attempts: 1 })
      expect(first.body.data.last_error).toBeTruthy()
      if (mode === 500) expect(first.body.data.last_status_code).toBe(500)
      expect(Date.parse(first.body.data.next_attempt_at) - api.clock.now()).toBe(5000)
      receiver.state.mode = 200
      api.clock.advance(5000)
      const done = await until(
        () => deliveries(hook.webhook_id),
        (rows) => rows[0].status === 'delivered',
      )
      expect(done[0]).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 })
      // Two attempts (Deno's HTTP client sends a reset request once more itself: at least once).
      const hits = receiver.hits.slice(start)
      expect(hits.length).toBeGreaterThanOrEqual(2)
      expect(new Set(hits.map((h) => h.id)).size).toBe(1)
    }
  })

  test("a sale's events are sent again byte for byte after a refund, saying the sale and its commission as they were", async () => {
    // The sale path keeps its events without a body (src/db/tables/outbox.ts): each attempt builds it.
    const f = await api.setupProgram({ holding_period_days: 0 })
    const path = `/hooks/late-${f.programId}`
    receiver.modeFor.set(path, 500)
    const hook = await endpoint(f.programId, { url: `${receiver.url}/late-${f.programId}`, events: ['sale.created', 'commission.created'] })
    const key = unique('c')
    await k.customer(f, key)
    const txn = unique('txn')
    const sale = await k.sale(f, { transaction_id: txn, customer_key: key, amount_cents: 10000 })
    expect(sale.status).toBe(200)
    const ours = (hits: Hit[]) => hits.filter((h) => h.path === path)
    const first = ours(await receiver.waitFor((hits) => ours(hits).length >= 2))
    await until(
      () => deliveries(hook.webhook_id),
      (rows) => rows.length === 2 && rows.every((r) => r.attempts === 1),
    )
    expect((await k.refund(f, { transaction_id: txn })).status).toBe(200)
    receiver.modeFor.set(path, 200)
    api.clock.advance(5000)
    const all = ours(await receiver.waitFor((hits) => ours(hits).length >= 4))
    for (const hit of first) {
      const again = all.filter((h) => h.id === hit.id)
      expect(again).toHaveLength(2)
      expect(again[1]!.body).toBe(hit.body)
      expect(receiver.verify(again[1]!, hook.secret)).toEqual(hit.json)
    }
    const data = (type: string) => first.find((h) => h.json.type === type)!.json.data
    expect(data('sale.created')).toMatchObject({ sale_id: sale.body.data.sale_id, transaction_id: txn, status: 'recorded' })
    expect(data('commission.created')).toMatchObject({ kind: 'commission', amount_cents: 1000, status: 'due', review: null })
    const read = (await api.admin('GET', `/programs/${f.programId}/sales?limit=1`)).body.data[0]
    expect(read.status).toBe('refunded')
    expect({ ...data('sale.created'), status: 'refunded' }).toEqual(read)
  })

  test('after the schedule a delivery is failed; deliveries/retry attempts every undelivered one now', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['webhook.test'] })
    receiver.state.mode = 503
    await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    const failed = await until(
      () => deliveries(hook.webhook_id),
      (rows) => rows[0].status === 'failed',
      () => api.clock.advance(3_600_000),
    )
    expect(failed[0]).toMatchObject({ status: 'failed', attempts: 8, last_status_code: 503 })
    receiver.state.mode = 200
    const retried = await api.admin('POST', `/webhooks/${hook.webhook_id}/deliveries/retry`)
    expect(retried.body.data).toEqual({ webhook_id: hook.webhook_id, queued: 1 })
    const done = await until(
      () => deliveries(hook.webhook_id),
      (rows) => rows[0].status === 'delivered',
    )
    expect(done[0].attempts).toBe(9)
  })

  test('an endpoint with only failures for 3 days is set inactive', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['webhook.test'] })
    receiver.state.mode = 500
    const state = async () => (await api.admin('GET', `/programs/${f.programId}/webhooks`)).body.data[0]
    // An event every 6 hours, each failing: after 3 days of nothing but failures the endpoint is off.
    for (let hours = 0; hours < 72; hours += 6) {
      await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
      expect((await state()).active).toBe(true)
      api.clock.advance(6 * 3_600_000)
    }
    await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    const off = await until(state, (e) => e.active === false)
    expect(off).toMatchObject({ active: false, disabled_at: expect.any(String) })
    receiver.state.mode = 200
  })
})

describe('secret rotation', () => {
  test('for 24 hours after a rotation each delivery carries two signatures: both secrets verify it', async () => {
    const f = await api.setupProgram()
    const hook = await endpoint(f.programId, { events: ['webhook.test'] })
    const rotated = await api.admin('POST', `/webhooks/${hook.webhook_id}/secret`)
    expect(rotated.body.data.secret).not.toBe(hook.secret)
    const start = receiver.hits.length
    await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    const [hit] = (await receiver.waitFor((h) => h.length > start)).slice(start)
    expect(hit!.signature.split(' ')).toHaveLength(2)
    expect(receiver.verify(hit!, rotated.body.data.secret)).toBeTruthy()
    expect(receiver.verify(hit!, hook.secret)).toBeTruthy()
    expect(() => receiver.verify(hit!, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow()
  })
})

describe('SSRF', () => {
  test('without WEBHOOKS_ALLOW_PRIVATE, URLs to private addresses are refused at creation and at delivery', async () => {
    const strict = await startApi()
    try {
      const f = await strict.setupProgram()
      const message = 'url must not point at a loopback, private, link-local or unique-local address'
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost:9/x',
        'http://[::1]/x',
        'http://10.1.2.3/x',
        'http://192.168.0.10/x',
        'http://169.254.169.254/latest/meta-data',
        'http://[fd00::1]/x',
        'http://[::ffff:127.0.0.1]/x',
      ]) {
        const reply = await strict.admin('POST', `/programs/${f.programId}/webhooks`, { url })
        expect({ url, status: reply.status, message: reply.body.error?.message }).toEqual({ url, status: 400, message })
      }
      const ftp = await strict.admin('POST', `/programs/${f.programId}/webhooks`, { url: 'ftp://example.com/x' })
      expect(ftp.body.error.message).toBe('url must be an http(s) URL')
      // An endpoint whose address became private after creation (here: written by hand) gets nothing.
      const made = await strict.admin('POST', `/programs/${f.programId}/webhooks`, {
        url: 'https://hooks.example.com/svc',
        events: ['webhook.test'],
      })
      expect(made.status).toBe(201)
      strict.server.deps.database.client
        .prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?')
        .run(receiver.url, made.body.data.webhook_id)
      const start = receiver.hits.length
      const attempt = await strict.admin('POST', `/webhooks/${made.body.data.webhook_id}/test`)
      expect(attempt.body.data.last_error).toContain('url must not point at a loopback')
      expect(receiver.hits.length).toBe(start)
      // A name that resolves to a private address (this machine's own name, where /etc/hosts says
      // so): refused at delivery, named without what it resolved to.
      const host = hostname()
      const resolved = await lookup(host, { all: true }).catch(() => [])
      if (resolved.length > 0 && resolved.every((a) => isPrivateAddress(a.address))) {
        strict.server.deps.database.client
          .prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?')
          .run(`http://${host}:${receiver.port}/hooks`, made.body.data.webhook_id)
        const named = await strict.admin('POST', `/webhooks/${made.body.data.webhook_id}/test`)
        expect(named.body.data.last_error).toBe(`${host} resolves to a private address: refused`)
        for (const { address } of resolved) expect(named.body.data.last_error).not.toContain(address)
        expect(receiver.hits.length).toBe(start)
      }
    } finally {
      await strict.stop()
    }
  })
})
