import { afterEach, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { seeded } from '../../property.ts'
import net from 'node:net'
import { RateLimiter } from '../../../src/http/pipeline/rate-limit.ts'
import { minutes, startApi, testRuntime, type Api } from '../../helpers.ts'

let api: Api
afterEach(() => api?.stop())

const click = (headers: Record<string, string> = {}) => api.call('POST', '/api/v1/track/click', { body: {}, headers })

describe('per-minute limits (docs/api.md, Limits)', () => {
  test('click allows 60 a minute per IP, counting down, then answers the typed 429 until the window resets', async () => {
    api = await startApi()
    const started = Math.ceil((api.clock.now() + minutes(1)) / 1000)
    for (let i = 1; i <= 60; i++) {
      const reply = await click()
      expect(reply.status).not.toBe(429)
      expect(reply.headers.get('x-ratelimit-limit')).toBe('60')
      expect(reply.headers.get('x-ratelimit-remaining')).toBe(String(60 - i))
      expect(reply.headers.get('x-ratelimit-reset')).toBe(String(started))
      expect(reply.headers.get('retry-after')).toBeNull()
    }
    api.clock.advance(15_000)
    const refused = await click()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('45')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('x-request-id')).toBeTruthy()
    expect(refused.body).toEqual({
      error: { code: 'rate_limited', message: expect.any(String), status: 429, retry_after_seconds: 45 },
    })
    expect('data' in refused.body).toBe(false)
    api.clock.advance(45_000)
    const again = await click()
    expect(again.status).not.toBe(429)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('59')
  })

  test('lead allows 30 a minute per IP', async () => {
    api = await startApi()
    for (let i = 0; i < 30; i++) expect((await api.call('POST', '/api/v1/track/lead', { body: {} })).status).not.toBe(429)
    expect((await api.call('POST', '/api/v1/track/lead', { body: {} })).status).toBe(429)
  })

  test('behind a proxy (TRUST_PROXY=true) the bucket is the right-most X-Forwarded-For entry; otherwise the header is ignored', async () => {
    api = await startApi({ env: { TRUST_PROXY: 'true' } })
    // The left-most entries are the client's own writing: a fresh one per request changes nothing.
    for (let i = 0; i < 60; i++) expect((await click({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` })).status).not.toBe(429)
    expect((await click({ 'x-forwarded-for': 'random, 203.0.113.7' })).status).toBe(429)
    expect((await click({ 'x-forwarded-for': '203.0.113.7' })).status).toBe(429)
    expect((await click({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' })).status).not.toBe(429)
    expect((await click({ 'x-forwarded-for': '203.0.113.2' })).status).not.toBe(429)
    await api.stop()
    api = await startApi()
    for (let i = 0; i < 60; i++) await click({ 'x-forwarded-for': `203.0.113.${i}` })
    expect((await click({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(429)
  })

  test('behind nginx or Caddy (TRUST_PROXY=true) a client-sent Fly-Client-IP picks no bucket: a fresh one per request is still refused', async () => {
    api = await startApi({ env: { TRUST_PROXY: 'true' } })
    // The attack: nginx passes Fly-Client-IP through, so a client that wrote a new one on every
    // request once escaped every per-IP limit. The proxy's X-Forwarded-For entry decides.
    for (let i = 0; i < 60; i++) await click({ 'fly-client-ip': `198.51.100.${i}`, 'x-forwarded-for': '203.0.113.7' })
    expect((await click({ 'fly-client-ip': '198.51.100.200', 'x-forwarded-for': '203.0.113.7' })).status).toBe(429)
    // The operator API's lockout (10 wrong tokens a minute per IP) holds the same way.
    for (let i = 0; i < 10; i++) {
      const wrong = await api.call('GET', '/api/v1/admin/programs', {
        token: `wrong-${i}`,
        headers: { 'fly-client-ip': `198.51.100.${i}`, 'x-forwarded-for': '203.0.113.9' },
      })
      expect(wrong.status).toBe(401)
    }
    const locked = await api.call('GET', '/api/v1/admin/programs', {
      token: 'wrong-again',
      headers: { 'fly-client-ip': '198.51.100.99', 'x-forwarded-for': '203.0.113.9' },
    })
    expect(locked.status).toBe(429)
  })

  test("on Fly (TRUST_PROXY=fly) the bucket is Fly-Client-IP, which Fly's proxy writes; X-Forwarded-For when it is absent", async () => {
    api = await startApi({ env: { TRUST_PROXY: 'fly' } })
    for (let i = 0; i < 60; i++) await click({ 'fly-client-ip': '203.0.113.3', 'x-forwarded-for': `198.51.100.${i}` })
    expect((await click({ 'fly-client-ip': '203.0.113.3', 'x-forwarded-for': '198.51.100.250' })).status).toBe(429)
    expect((await click({ 'fly-client-ip': '203.0.113.4', 'x-forwarded-for': '203.0.113.3' })).status).not.toBe(429)
    expect((await click({ 'x-forwarded-for': '203.0.113.3' })).status).toBe(429)
  })

  test('sale and refund share one bucket of 120 per API key, and another key has its own', async () => {
    api = await startApi()
    const a = await api.setupProgram()
    const b = await api.setupProgram()
    for (let i = 0; i < 60; i++) await api.call('POST', '/api/v1/track/sale', { body: {}, token: a.apiKey })
    for (let i = 0; i < 60; i++) await api.call('POST', '/api/v1/track/refund', { body: {}, token: a.apiKey })
    const refused = await api.call('POST', '/api/v1/track/sale', { body: {}, token: a.apiKey })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120')
    expect(refused.body.error.code).toBe('rate_limited')
    expect((await api.call('POST', '/api/v1/track/refund', { body: {}, token: b.apiKey })).status).not.toBe(429)
    // Unknown tokens are no key: they count against the IP, whose own bucket is untouched so far.
    for (let i = 0; i < 120; i++) expect((await api.call('POST', '/api/v1/track/sale', { body: {}, token: `junk-${i}` })).status).toBe(401)
    expect((await api.call('POST', '/api/v1/track/sale', { body: {}, token: 'junk-new' })).status).toBe(429)
    expect((await api.call('POST', '/api/v1/track/sale', { body: {} })).status).toBe(429)
    expect((await api.call('POST', '/api/v1/track/sale', { body: {}, token: b.apiKey })).status).not.toBe(429)
  })

  test('readiness allows 30 and the CLI routes 60 a minute per key or IP', async () => {
    api = await startApi()
    for (let i = 0; i < 30; i++) await api.call('GET', '/api/v1/programs/me/readiness', { token: 'k' })
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { token: 'k' })
    expect(readiness.status).toBe(429)
    expect(readiness.headers.get('x-ratelimit-limit')).toBe('30')
    for (let i = 0; i < 60; i++) await api.call('GET', '/api/v1/cli/auth/poll')
    const cli = await api.call('POST', '/api/v1/cli/auth/start')
    expect(cli.status).toBe(429)
    expect(cli.body.error.retry_after_seconds).toBeGreaterThan(0)
  })
})

test('a CORS preflight on a limited route reports the limit without spending it', async () => {
  api = await startApi()
  for (let i = 0; i < 3; i++) {
    const preflight = await api.call('OPTIONS', '/api/v1/track/click', {
      headers: { origin: 'https://nobody.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers.get('x-ratelimit-limit')).toBe('60')
    expect(preflight.headers.get('x-ratelimit-remaining')).toBe('60')
  }
  expect((await click()).headers.get('x-ratelimit-remaining')).toBe('59')
  const after = await api.call('OPTIONS', '/api/v1/track/click', { headers: { origin: 'https://nobody.example' } })
  expect(after.headers.get('x-ratelimit-remaining')).toBe('59')
})

test('a 429 to a key due for rotation still carries the rotation headers and warnings', async () => {
  api = await startApi()
  const f = await api.setupProgram()
  const rotateBy = new Date(api.clock.now() + 7 * 86_400_000).toISOString()
  await api.admin('POST', `/programs/${f.programId}/api-key/rotation`, { rotate_by: rotateBy })
  let reply = await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })
  for (let i = 0; i < 30 && reply.status !== 429; i++) reply = await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })
  expect(reply.status).toBe(429)
  expect(reply.headers.get('sunset')).toBe(new Date(rotateBy).toUTCString())
  expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/)
  expect(reply.body.warnings).toEqual([expect.objectContaining({ code: 'api_key_rotation_required', rotate_by: rotateBy })])
  expect(reply.body.error.code).toBe('rate_limited')
})

test('a 429 answered before its body arrived is whole; on Bun the connection goes on (the runtime drops the body), on Deno it closes', async () => {
  api = await startApi()
  for (let i = 0; i < 60; i++) await click()
  const body = '{"affiliate_url":"https://shop.test/?aff=x"}'
  const socket = net.connect(api.port, '127.0.0.1')
  let received = ''
  let closed = false
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
  })
  socket.on('close', () => {
    closed = true
  })
  socket.on('error', () => {})
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  socket.write(
    `POST /api/v1/track/click HTTP/1.1\r\nHost: svc.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  )
  await Bun.sleep(100)
  socket.write(body)
  await Bun.sleep(50)
  socket.write('GET /healthz HTTP/1.1\r\nHost: svc.test\r\n\r\n')
  const deadline = Date.now() + 5_000
  while (received.split('HTTP/1.1 ').length < 3 && !closed && Date.now() < deadline) await Bun.sleep(10)
  socket.destroy()
  const statuses = received
    .split('HTTP/1.1 ')
    .slice(1)
    .map((answer) => answer.slice(0, 3))
  // Bun reads and drops a body the app left unread (src/runtime/runtime.ts, discardsUnreadBodies): the
  // app does not wait for it. Deno closes the connection after such an answer, so there the app drains it.
  expect(statuses).toEqual(testRuntime === 'deno' ? ['429'] : ['429', '200'])
  expect(received).toContain('"retry_after_seconds"')
})

describe('the bucket store', () => {
  test('idle buckets are evicted, so many distinct IPs cannot grow memory without bound', () => {
    let now = 0
    const limiter = new RateLimiter(() => now)
    for (let i = 0; i < 10_000; i++) limiter.take(`ip:${i}`, 60)
    expect(limiter.size).toBe(10_000)
    now += minutes(1)
    limiter.take('ip:new', 60)
    expect(limiter.size).toBe(1)
  })

  test('past the hard cap the least recently used are dropped within the window; active keys keep their counts', () => {
    let now = 0
    const limiter = new RateLimiter(() => now, 1_024)
    limiter.take('busy', 60)
    for (let i = 0; i < 5_000; i++) {
      limiter.take(`ip:${i}`, 60)
      if (i % 100 === 0) limiter.take('busy', 60)
      now += 1
    }
    expect(limiter.size).toBeLessThanOrEqual(1_024)
    expect(limiter.size).toBeGreaterThan(900)
    // The key that kept sending kept its count (1 + 50 taken); the oldest starts again.
    expect(limiter.take('busy', 60).remaining).toBe(60 - 52)
    expect(limiter.take('ip:0', 60).remaining).toBe(59)
    expect(limiter.take('ip:4999', 60).remaining).toBe(58)
  })

  test('a flooding key stays refused while many new keys come and go', () => {
    let now = 0
    const limiter = new RateLimiter(() => now, 4_096)
    for (let i = 0; i < 3; i++) limiter.take('flood', 3)
    for (let i = 0; i < 20_000; i++) {
      limiter.take(`ip:${i}`, 60)
      if (i % 200 === 0) expect(limiter.take('flood', 3).allowed).toBe(false)
      now += 2
    }
    expect(limiter.size).toBeLessThanOrEqual(4_096)
    now = 60_000
    expect(limiter.take('flood', 3)).toMatchObject({ allowed: true, remaining: 2 })
  })

  test('buckets of a window that ended are dropped whole, and peek spends nothing', () => {
    let now = 0
    const limiter = new RateLimiter(() => now)
    limiter.take('a', 5)
    expect(limiter.peek('a', 5)).toMatchObject({ allowed: true, remaining: 4, resetAt: 60_000 })
    expect(limiter.peek('b', 5)).toMatchObject({ allowed: true, remaining: 5 })
    now = 30_000
    limiter.take('b', 5)
    now = 70_000
    // a's window ended; b's is open until 90,000 and survives the new generation.
    expect(limiter.take('b', 5).remaining).toBe(3)
    expect(limiter.take('a', 5).remaining).toBe(4)
    now = 200_000
    limiter.take('c', 5)
    expect(limiter.size).toBe(1)
  })

  test('distinct keys keep distinct buckets while the table has room', () => {
    const limiter = new RateLimiter(() => 0, 1 << 16)
    for (let i = 0; i < 20_000; i++) limiter.take(`click:ip:10.0.${i >> 8}.${i & 255}`, 60)
    expect(limiter.size).toBe(20_000)
    for (let i = 0; i < 20_000; i++) expect(limiter.peek(`click:ip:10.0.${i >> 8}.${i & 255}`, 60).remaining).toBe(59)
  })

  test('while the table has room it decides exactly as one bucket per key would (random takes, peeks and time)', () => {
    type Op = { kind: 'take' | 'peek'; key: number; limit: number; advance: number }
    const op = fc.record({
      kind: fc.constantFrom<'take' | 'peek'>('take', 'take', 'take', 'peek'),
      key: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 150 })),
      limit: fc.constantFrom(1, 3, 60),
      advance: fc.oneof(
        fc.constant(0),
        fc.constantFrom(1, 59_999, 60_000),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 70_000 }),
      ),
    })
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops: Op[]) => {
        let now = 1_000
        const limiter = new RateLimiter(() => now, 4_096)
        // The model: a bucket per key, a fresh whole window once the last one has ended.
        const model = new Map<string, { remaining: number; resetAt: number }>()
        for (const { kind, key, limit, advance } of ops) {
          now += advance
          const name = `click:ip:198.51.100.${key}`
          let bucket = model.get(name)
          if (!bucket || bucket.resetAt <= now) bucket = { remaining: limit, resetAt: now + 60_000 }
          if (kind === 'peek') {
            const open = model.get(name)?.resetAt ?? 0
            const expected = open > now ? bucket : { remaining: limit, resetAt: now + 60_000 }
            expect(limiter.peek(name, limit)).toEqual({ allowed: expected.remaining > 0, limit, ...expected })
            continue
          }
          model.set(name, bucket)
          const allowed = bucket.remaining > 0
          if (allowed) bucket.remaining--
          expect(limiter.take(name, limit)).toEqual({ allowed, limit, remaining: bucket.remaining, resetAt: bucket.resetAt })
        }
      }),
      seeded({ numRuns: 200 }),
    )
  })

  test('a limit scaled past 2^31 counts down exactly', () => {
    const limiter = new RateLimiter(() => 0, 1_024)
    expect(limiter.take('k', 3e9).remaining).toBe(3e9 - 1)
    expect(limiter.take('k', 3e9).remaining).toBe(3e9 - 2)
  })

  test('a refused key stays refused until its window ends, then gets the whole limit again', () => {
    let now = 0
    const limiter = new RateLimiter(() => now)
    for (let i = 0; i < 3; i++) expect(limiter.take('k', 3).allowed).toBe(true)
    expect(limiter.take('k', 3)).toMatchObject({ allowed: false, remaining: 0, resetAt: 60_000 })
    now = 60_000
    expect(limiter.take('k', 3)).toMatchObject({ allowed: true, remaining: 2, resetAt: 120_000 })
  })
})
