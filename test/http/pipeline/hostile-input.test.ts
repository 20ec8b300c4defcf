// Issue 9: anonymous traffic must not stall, bloat or side-step the service (docs/decisions.md, Hostile input).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, startApi, testRuntime, withOwnServer, type Api, type Fixture } from '../../helpers.ts'
import { rawRequest } from './raw-http.ts'

let api: Api
let f: Fixture
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
  f = await api.setupProgram()
})
afterAll(() => api.stop())

const KiB = 1024
const MiB = 1024 * KiB
const raw = (head: string, body?: (string | Uint8Array)[], options?: { hangUpWhenAnswered?: boolean }) =>
  rawRequest(api.port, head, body, options)
const get = (target: string, host = 'svc.test') => raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)

describe('a path of many slashes (item 1)', () => {
  test('is routed on its path without repeated or trailing slashes, under 8 KiB, in the route envelope with X-Request-ID', async () => {
    const flood = await get(`/api${'/'.repeat(7000)}a/`)
    expect(flood.status).toBe(404)
    expect(flood.json).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Route not found', details: {} } })
    expect(flood.headers['x-request-id']).toBeTruthy()
    const click = await raw(
      `POST /api/v1/track/click${'/'.repeat(5000)} HTTP/1.1\r\nHost: svc.test\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    )
    expect(click.status).toBe(400)
    expect(click.json.error.message).toBe('affiliate_url is required')
    expect(click.headers['x-ratelimit-limit']).toBeTruthy()
    expect((await get('/healthz///')).json).toEqual({ data: { status: 'ok' }, error: null })
  })

  test('repeated slashes anywhere in the path are one: the same route, limit bucket and envelope', async () => {
    for (const target of ['//healthz', '///healthz', '/healthz//', '//healthz//?x=1']) {
      expect({ target, body: (await get(target)).json }).toEqual({ target, body: { data: { status: 'ok' }, error: null } })
    }
    const click = (target: string) =>
      raw(`POST ${target} HTTP/1.1\r\nHost: svc.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`)
    const remaining: number[] = []
    for (const target of ['/api/v1/track/click', '//api//v1///track/click///', '/api//v1/track//click']) {
      const reply = await click(target)
      expect({ target, status: reply.status, message: reply.json.error.message }).toEqual({
        target,
        status: 400,
        message: 'affiliate_url is required',
      })
      remaining.push(Number(reply.headers['x-ratelimit-remaining']))
    }
    // One bucket: each spelling took a token from the same count.
    expect(remaining[1]).toBe(remaining[0] - 1)
    expect(remaining[2]).toBe(remaining[0] - 2)
    const sale = await raw(
      `POST //api/v1//track/sale HTTP/1.1\r\nHost: svc.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    )
    expect(sale.status).toBe(401)
    expect(sale.json.error.code).toBe('unauthorized')
  })

  test('a URL over 8 KiB is refused with 400 in the route envelope', async () => {
    for (const target of [`/api${'/'.repeat(9000)}a/`, `/api${'/'.repeat(9000)}`, `/api/v1/track/click?x=${'a'.repeat(9000)}`]) {
      const reply = await get(target)
      expect(reply.status).toBe(400)
      expect(reply.json).toEqual({
        data: null,
        error: { status: 400, name: 'BadRequestError', message: 'URL too long (limit 8192 bytes)', details: {} },
      })
      expect(reply.headers['x-request-id']).toBeTruthy()
    }
    const sale = await get(`/api/v1/track/sale?x=${'a'.repeat(9000)}`)
    expect(sale.json.error.code).toBe('invalid_request')
    expect(sale.json.error.message).toBe('URL too long (limit 8192 bytes)')
    // 8 KiB itself is still a URL.
    expect((await get(`/healthz?x=${'a'.repeat(8192 - '/healthz?x='.length)}`)).status).toBe(200)
  })

  test('URLs and Authorization headers far over their limits still get the envelope, not a bare 431 from the transport', async () => {
    // The transport refuses a request head over 64 KiB (bun --max-http-header-size, package.json); below
    // that every oversized URL or token reaches the app and its documented answer.
    const url = await get(`/api/v1/track/click?x=${'a'.repeat(60 * KiB)}`)
    expect(url.status).toBe(400)
    expect(url.json.error.message).toBe('URL too long (limit 8192 bytes)')
    const sale = await raw(
      `POST /api/v1/track/sale HTTP/1.1\r\nHost: svc.test\r\nAuthorization: Bearer ${'k'.repeat(60 * KiB)}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    )
    expect(sale.status).toBe(401)
    expect(sale.json.error).toMatchObject({ code: 'unauthorized', message: 'Invalid API token' })
    // The same transport limit wherever the service runs: npm start, the compiled binary, the suite.
    const scripts = (await Bun.file('package.json').json()).scripts
    for (const name of ['start', 'build:server'])
      expect({ name, script: scripts[name] }).toMatchObject({ name, script: expect.stringContaining('--max-http-header-size=65536 ') })
    // npm test starts the Bun suite from scripts/test.ts (beside the Deno one).
    expect(scripts.test).toBe('bun scripts/test.ts')
    expect(await Bun.file('scripts/test.ts').text()).toContain("'--max-http-header-size=65536', 'test'")
  })
})

describe('an odd Host header (item 3)', () => {
  test('routes every request on its own path, whatever the Host says', async () => {
    for (const host of ['x', '', 'a:1', 'ab', '[::1]', 'svc.example:8443']) {
      const health = await get('/healthz', host)
      expect({ host, status: health.status, body: health.json }).toEqual({
        host,
        status: 200,
        body: { data: { status: 'ok' }, error: null },
      })
      expect(health.headers['x-request-id']).toBeTruthy()
    }
    // Elysia would have read /api/v1/track/click out of this URL for `Host: x`: no limit applied to it.
    const doubled = await raw('POST /api/api/v1/track/click HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')
    expect(doubled.status).toBe(404)
  })

  test('the click limit counts requests sent with a one-letter Host', async () => {
    await withOwnServer(async (own) => {
      const click = () =>
        rawRequest(own.port, 'POST /api/v1/track/click HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')
      for (let i = 0; i < 60; i++) {
        const reply = await click()
        expect(reply.json.error.message).toBe('affiliate_url is required')
      }
      const refused = await click()
      expect(refused.status).toBe(429)
      expect(refused.json.error.code).toBe('rate_limited')
    })
  })
})

describe('an oversized body (item 4)', () => {
  const sizes = [64 * KiB + 1, MiB + 1, 4 * MiB + 1]
  const send = (path: string, size: number, chunked: boolean, token?: string) => {
    const bytes = new Uint8Array(size).fill(32)
    const body = chunked
      ? new ReadableStream({
          start(c) {
            for (let at = 0; at < size; at += 256 * KiB) c.enqueue(bytes.subarray(at, at + 256 * KiB))
            c.close()
          },
        })
      : bytes
    return fetch(api.url + path, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    } as RequestInit)
  }

  for (const chunked of [false, true]) {
    test(`answers 400 in the route envelope with X-Request-ID at any size (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      for (const size of sizes) {
        const click = await send('/api/v1/track/click', size, chunked)
        expect({ size, status: click.status, body: await click.json() }).toEqual({
          size,
          status: 400,
          body: {
            data: null,
            error: { status: 400, name: 'BadRequestError', message: 'Request body too large (limit 65536 bytes)', details: {} },
          },
        })
        expect(click.headers.get('x-request-id')).toBeTruthy()
        const sale = await send('/api/v1/track/sale', size, chunked, f.apiKey)
        expect(sale.status).toBe(400)
        expect((await sale.json()).error).toMatchObject({ code: 'invalid_request', message: 'Request body too large (limit 65536 bytes)' })
        const hook = await send(`/api/v1/webhooks/stripe/${f.programId}`, size + 512 * KiB, chunked)
        expect(hook.status).toBe(400)
        expect((await hook.json()).error.message).toBe('Request body too large (limit 524288 bytes)')
        // Routes that answer before reading a body still let the client finish sending.
        const unknown = await send('/api/v1/nowhere', size, chunked)
        expect(unknown.status).toBe(404)
        expect((await unknown.json()).error.message).toBe('Route not found')
      }
    })
  }

  test('routes that take no body ignore a small one but answer 400 to one over the limit, after their credential check', async () => {
    const account = (await api.admin('POST', '/accounts', { email: `nobody-${Date.now()}@shop.test` })).body.data.account_id
    const routes: [string, string | undefined][] = [
      ['/api/v1/cli/auth/start', undefined],
      [`/api/v1/admin/accounts/${account}/unsuspend`, ADMIN_TOKEN],
      [`/api/v1/admin/accounts/${account}/id-token`, ADMIN_TOKEN],
      [`/api/v1/admin/accounts/${account}/dashboard-link`, ADMIN_TOKEN],
      [`/api/v1/admin/programs/${f.programId}/partners/${f.partnerId}/portal-link`, ADMIN_TOKEN],
    ]
    for (const chunked of [false, true]) {
      for (const [path, token] of routes) {
        const small = await send(path, 10, chunked, token)
        expect({ path, chunked, status: small.status }).toEqual({ path, chunked, status: 200 })
        const big = await send(path, 64 * KiB + 1, chunked, token)
        expect({ path, chunked, status: big.status, message: (await big.json()).error?.message }).toEqual({
          path,
          chunked,
          status: 400,
          message: 'Request body too large (limit 65536 bytes)',
        })
      }
    }
    // The operator API's 401 comes first, whatever the body.
    expect((await send(`/api/v1/admin/accounts/${account}/unsuspend`, MiB, false, 'wrong')).status).toBe(401)
  })

  test('with a Content-Length and the body still arriving, the answer comes before the connection closes (no reset)', async () => {
    const size = 4 * MiB + 1
    const chunk = new Uint8Array(64 * KiB).fill(32)
    const parts = Array.from({ length: Math.ceil(size / chunk.length) }, (_, i) =>
      i === 0 ? chunk.subarray(0, size - (Math.ceil(size / chunk.length) - 1) * chunk.length) : chunk,
    )
    const reply = await raw(
      `POST /api/v1/track/lead HTTP/1.1\r\nHost: svc.test\r\nContent-Length: ${size}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n`,
      parts,
    )
    expect(reply.reset).toBe(false)
    expect(reply.status).toBe(400)
    expect(reply.json.error.message).toBe('Request body too large (limit 65536 bytes)')
    expect(reply.headers['x-request-id']).toBeTruthy()
  })
})

describe('a body declared past 64 MiB', () => {
  test('is answered at once in the route envelope, without waiting for the body: never a bare 413', async () => {
    // 1 GiB declared, 1 MiB sent: the answer must not wait for the rest (nor for the idle timeout).
    const part = new Uint8Array(64 * KiB).fill(32)
    const started = performance.now()
    for (const [path, message] of [
      ['/api/v1/track/click', 'Request body too large (limit 65536 bytes)'],
      ['/api/v1/track/sale', 'Request body too large (limit 65536 bytes)'],
      [`/api/v1/webhooks/stripe/${f.programId}`, 'Request body too large (limit 524288 bytes)'],
    ]) {
      const reply = await raw(
        `POST ${path} HTTP/1.1\r\nHost: svc.test\r\nAuthorization: Bearer ${f.apiKey}\r\nContent-Length: ${1024 * MiB}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n`,
        Array.from({ length: 16 }, () => part),
        { hangUpWhenAnswered: true },
      )
      expect({ path, status: reply.status, message: reply.json?.error?.message }).toEqual({ path, status: 400, message })
      expect(reply.headers['x-request-id']).toBeTruthy()
    }
    // Answered before the body, not after the transport's idle timeout (10 s on Bun) closed the connection.
    expect(performance.now() - started).toBeLessThan(9_000)
  })
})

describe('Bearer tokens nobody issued (item 2)', () => {
  const long = `Bearer ${'x'.repeat(2000)}`

  test("an Authorization header over 1 KiB answers the route's 401 for an unknown token", async () => {
    const sale = await api.call('POST', '/api/v1/track/sale', { body: {}, headers: { authorization: long } })
    expect(sale.status).toBe(401)
    expect(sale.body.error).toMatchObject({ message: 'Invalid API token', code: 'unauthorized' })
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { headers: { authorization: long } })
    expect(readiness.body).toEqual({ error: { code: 'invalid_key', message: 'Invalid API token.' } })
    const programs = await api.call('GET', '/api/v1/cli/programs', { headers: { authorization: long } })
    expect(programs.body.error.message).toBe('Invalid or expired token. Run `svc login` to refresh.')
    const lead = await api.call('POST', '/api/v1/track/lead', { body: { click_id: 'c' }, headers: { authorization: long } })
    expect(lead.body.error.message).toBe('Invalid API token')
    const admin = await api.call('GET', '/api/v1/admin/programs', { headers: { authorization: long } })
    expect(admin.status).toBe(401)
    // A whole Bearer token of 1 KiB less its prefix is still read as a token.
    const fits = await api.call('POST', '/api/v1/track/sale', { body: {}, headers: { authorization: `Bearer ${'y'.repeat(1024 - 7)}` } })
    expect(fits.body.error.message).toBe('Invalid API token')
  })

  test.if(testRuntime === 'bun')('junk tokens make no rate-limit bucket of their own', async () => {
    await withOwnServer(async (own) => {
      const { limiter } = own.server.deps
      await own.call('POST', '/api/v1/track/sale', { body: {}, token: 'warm-up' })
      const before = limiter.size
      for (let i = 0; i < 100; i++) await own.call('POST', '/api/v1/track/sale', { body: {}, token: `junk-${i}-${'z'.repeat(900)}` })
      expect(limiter.size).toBe(before)
    })
  })

  test('a fresh junk token per request does not lift the 60 a minute of a credential-free route', async () => {
    await withOwnServer(async (own) => {
      for (let i = 0; i < 60; i++) {
        expect((await own.call('GET', '/api/v1/cli/auth/poll?state=none', { token: `junk-${i}` })).status).toBe(404)
      }
      const refused = await own.call('GET', '/api/v1/cli/auth/poll?state=none', { token: 'junk-fresh' })
      expect(refused.status).toBe(429)
    })
  })
})

describe('the operator API (item 9)', () => {
  test('refuses an IP for the rest of the minute after 10 wrong tokens, the right token included', async () => {
    await withOwnServer(async (own) => {
      const as = (token: string) => own.call('GET', '/api/v1/admin/programs', { token })
      for (let i = 0; i < 10; i++) expect((await as(`wrong-${i}`)).status).toBe(401)
      for (const token of ['wrong-again', 'test-admin-token-0123456789']) {
        const refused = await as(token)
        expect(refused.status).toBe(429)
        expect(refused.body).toEqual({
          data: null,
          error: {
            status: 429,
            name: 'TooManyRequestsError',
            message: 'Too many wrong admin tokens from this address. Retry after the number of seconds in Retry-After.',
            details: {},
          },
        })
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      }
      own.clock.advance(60_000)
      expect((await as('test-admin-token-0123456789')).status).toBe(200)
    })
  })

  test('the right token spends nothing', async () => {
    await withOwnServer(async (own) => {
      for (let i = 0; i < 15; i++) expect((await own.admin('GET', '/programs')).status).toBe(200)
    })
  })
})

describe('values echoed in messages (item 11)', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)

  test('a non-string value nested 30,000 deep is quoted in a few characters', async () => {
    await api.call('POST', '/api/v1/track/lead', { token: f.apiKey, body: { customer_key: 'deep-customer' } })
    const body = `{"transaction_id":"deep-1","amount_cents":100,"customer_key":"deep-customer","currency":${deep(30_000)}}`
    const sale = await api.call('POST', '/api/v1/track/sale', { token: f.apiKey, body, headers: { 'content-type': 'application/json' } })
    expect(sale.status).toBe(422)
    expect(sale.body.error.message.length).toBeLessThan(120)
    expect(sale.body.error.message).toStartWith('currency [[[[')
    expect(sale.body.error.message).toEndWith('… is not supported')
  })
})
