// docs/decisions.md, "Webhook delivery (decided in turn 4)": a continuous pool (at most 2 attempts
// in flight per endpoint, 8 per program, 16 in all, endpoints taking turns), attempts that end
// within their deadline body included and close their socket, a test route that bypasses the
// pool's slots. Real servers, real receivers (test/outbox/receiver.ts), signatures verified with
// the official standardwebhooks package.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, startApi } from '../helpers.ts'
import { type Receiver, startReceiver } from './receiver.ts'

const env = { WEBHOOKS_ALLOW_PRIVATE: 'true', SVC_RATE_LIMIT_SCALE: '1000' }

async function endpoint(api: Api, f: Fixture, url: string, events = ['partner.created']) {
  const made = await api.admin('POST', `/programs/${f.programId}/webhooks`, { url, events })
  expect(made.status).toBe(201)
  return made.body.data as { webhook_id: number; secret: string }
}

const partners = (api: Api, f: Fixture, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => api.admin('POST', `/programs/${f.programId}/partners`, { name: `P${i}` })))

describe('a silent program', () => {
  let api: Api
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
    // The real 15 s deadline: the silent receivers hold their slots as long as they can.
    api = await startApi({ env, webhookTimeoutMs: 15_000 })
  })
  afterAll(async () => {
    await api.stop()
    await receiver.close()
  })

  test("delays another program's delivery by at most 1 s, and the test route still answers within 10 s", async () => {
    const a = await api.setupProgram()
    for (const name of ['a1', 'a2', 'a3']) {
      receiver.modeFor.set(`/hooks/${name}`, 'silent')
      await endpoint(api, a, `${receiver.url}/${name}`)
    }
    await partners(api, a, 24)
    // Program A's 72 deliveries hold every slot they may: 2 per endpoint.
    await receiver.waitFor((hits) => hits.filter((h) => h.path.startsWith('/hooks/a')).length >= 6)
    const b = await api.setupProgram()
    const hook = await endpoint(api, b, `${receiver.url}/b`)
    const made = Date.now()
    await partners(api, b, 1)
    const [hit] = (await receiver.waitFor((hits) => hits.some((h) => h.path === '/hooks/b'))).filter((h) => h.path === '/hooks/b')
    expect(hit).toBeDefined()
    expect(hit!.at - made).toBeLessThanOrEqual(1000)
    expect(receiver.verify(hit!, hook.secret)).toMatchObject({ type: 'partner.created' })
    const asked = Date.now()
    const tested = await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    expect(tested.body.data).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1 })
    expect(Date.now() - asked).toBeLessThan(1000)
    expect(receiver.peak((path) => path.startsWith('/hooks/a'))).toBe(6)
    for (const name of ['a1', 'a2', 'a3']) expect(receiver.peak((path) => path === `/hooks/${name}`)).toBe(2)
  })

  test("a silent endpoint's test route answers within 10 s, the attempt failed", async () => {
    const f = await api.setupProgram()
    receiver.modeFor.set('/hooks/quiet', 'silent')
    const hook = await endpoint(api, f, `${receiver.url}/quiet`, ['webhook.test'])
    const asked = Date.now()
    const tested = await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
    expect(Date.now() - asked).toBeLessThan(10_000)
    expect(tested.body.data).toMatchObject({ status: 'pending', attempts: 1, last_error: 'no answer within 8 s' })
  })
})

describe('the pool', () => {
  let api: Api
  beforeAll(async () => {
    api = await startApi({ env })
  })
  afterAll(() => api.stop())

  test('never has more than 2 attempts in flight per endpoint, 8 per program and 16 in all', async () => {
    const receiver = await startReceiver()
    try {
      receiver.state.mode = { holdMs: 150 }
      const programs = [await api.setupProgram(), await api.setupProgram(), await api.setupProgram()]
      for (const [p, f] of programs.entries()) for (let e = 0; e < 5; e++) await endpoint(api, f, `${receiver.url}/p${p}/e${e}`)
      for (const f of programs) await partners(api, f, 6)
      await receiver.waitFor((hits) => hits.length >= 90, 20_000)
      expect(receiver.hits).toHaveLength(90)
      for (let p = 0; p < 3; p++) {
        expect(receiver.peak((path) => path.startsWith(`/hooks/p${p}/`))).toBeLessThanOrEqual(8)
        for (let e = 0; e < 5; e++) expect(receiver.peak((path) => path === `/hooks/p${p}/e${e}`)).toBeLessThanOrEqual(2)
      }
      expect(receiver.peak()).toBeLessThanOrEqual(16)
      // A pool, not one program at a time.
      expect(receiver.peak()).toBeGreaterThan(8)
    } finally {
      await receiver.close()
    }
  })

  /** A test delivery to a receiver answering in `mode`: its 200 decides, and no socket outlives the attempt. */
  async function answeredBy(mode: 'trickle' | 'huge') {
    const receiver = await startReceiver()
    try {
      receiver.state.mode = mode
      const f = await api.setupProgram()
      const hook = await endpoint(api, f, receiver.url, ['webhook.test'])
      const heap = process.memoryUsage().heapUsed
      const tested = await api.admin('POST', `/webhooks/${hook.webhook_id}/test`)
      expect(tested.body.data).toMatchObject({ status: 'delivered', last_status_code: 200 })
      for (let i = 0; i < 50 && receiver.openSockets() > 0; i++) await Bun.sleep(20)
      expect(receiver.openSockets()).toBe(0)
      return { written: receiver.state.written, heapGrowth: process.memoryUsage().heapUsed - heap }
    } finally {
      await receiver.close()
    }
  }

  test("a trickling receiver's socket is closed by the attempt's deadline; its 200 decides", async () => {
    await answeredBy('trickle')
  })

  test('a 10 MB answer is read no further than 64 KB: its connection is ended, its 200 decides', async () => {
    const { written, heapGrowth } = await answeredBy('huge')
    expect(written).toBeLessThan(10 * 1024 * 1024)
    expect(heapGrowth).toBeLessThan(8 * 1024 * 1024)
  })
})

describe('a busy server', () => {
  // Small numbers, so that a test can make the server busy: 2 requests answered at once, and the
  // 2 s test-route attempts to a silent receiver hold them as long as needed.
  const gapMs = 150
  let api: Api
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
    api = await startApi({ env, webhookTimeoutMs: 2_000, webhookBusyRequests: 2, webhookBusyGapMs: gapMs })
  })
  afterAll(async () => {
    await api.stop()
    await receiver.close()
  })

  test('starts its attempts one per gap while it answers other requests, and the rest at once when it is quiet', async () => {
    const f = await api.setupProgram()
    receiver.modeFor.set('/hooks/silent', 'silent')
    const silent = await endpoint(api, f, `${receiver.url}/silent`, ['webhook.test'])
    await endpoint(api, f, `${receiver.url}/paced`)
    // Two requests the server answers only after their 2 s attempts: busy meanwhile.
    const busy = Promise.all([1, 2].map(() => api.admin('POST', `/webhooks/${silent.webhook_id}/test`)))
    await Bun.sleep(50)
    for (let i = 0; i < 30; i++) await api.admin('POST', `/programs/${f.programId}/partners`, { name: `Busy ${i}` })
    await busy
    const quiet = Date.now()
    const hits = (await receiver.waitFor((all) => all.filter((h) => h.path === '/hooks/paced').length >= 30)).filter(
      (h) => h.path === '/hooks/paced',
    )
    expect(hits).toHaveLength(30)
    const whileBusy = hits.filter((h) => h.at < quiet - 50).map((h) => h.at)
    expect(whileBusy.length).toBeGreaterThan(1)
    expect(whileBusy.length).toBeLessThanOrEqual(Math.ceil(2_000 / gapMs) + 2)
    for (let i = 1; i < whileBusy.length; i++) expect(whileBusy[i]! - whileBusy[i - 1]!).toBeGreaterThanOrEqual(gapMs - 50)
    // Quiet again: the backlog goes out at the pool's own pace (2 at a time), not one per gap.
    expect(Math.max(...hits.map((h) => h.at)) - quiet).toBeLessThan(1_000)
  })
})
