// Issue 9: random requests over every route never get a 5xx, a reset or a body that is not JSON.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ADMIN_TOKEN, startApi, type Api, type Fixture } from '../../helpers.ts'
import { rawRequest } from './raw-http.ts'

let api: Api
let f: Fixture
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
  f = await api.setupProgram({ lead_auth: 'browser_allowed' })
})
afterAll(() => api.stop())

/** A small seeded generator (mulberry32): a failure names its seed and replays exactly. */
function random(seed: number) {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]
  return { next, int, pick }
}

const ROUTES = [
  '/healthz',
  '/tracker.js',
  '/openapi.json',
  '/docs',
  '/cli/login',
  '/cli/login?state=abc',
  '/api/v1/track/click',
  '/api/v1/track/lead',
  '/api/v1/track/sale',
  '/api/v1/track/refund',
  '/api/v1/programs/me/readiness',
  '/api/v1/cli/auth/start',
  '/api/v1/cli/auth/callback',
  '/api/v1/cli/auth/poll',
  '/api/v1/cli/auth/poll?state=x',
  '/api/v1/cli/init',
  '/api/v1/cli/programs',
  '/api/v1/cli/status',
  '/api/v1/cli/test-event',
  '/api/v1/cli/stripe-connect',
  '/api/v1/webhooks/stripe',
  '/api/v1/webhooks/stripe/PID',
  '/api/v1/webhooks/stripe/abc',
  '/api/v1/admin/accounts',
  '/api/v1/admin/accounts/1/suspend',
  '/api/v1/admin/accounts/1/unsuspend',
  '/api/v1/admin/accounts/1/id-token',
  '/api/v1/admin/programs',
  '/api/v1/admin/programs/PID',
  '/api/v1/admin/programs/PID/api-key/rotation',
  '/api/v1/admin/programs/PID/partners',
  '/api/v1/admin/programs/PID/links',
  '/api/v1/admin/programs/PID/customers',
  '/api/v1/admin/programs/PID/sales?limit=2',
  '/api/v1/admin/programs/PID/commissions?cursor=x',
  '/api/v1/admin/programs/PID/events',
  '/api/v1/admin/links/1',
  '/api/v1/admin/sales/1',
  '/api/v1/admin/programs/99999999999999999999',
  '/nowhere',
  '/',
] as const
/** Answers that are not JSON by design: the tracker script and the HTML pages. */
// HTML pages: '/' leads (303) to /setup on a fresh database, a page.
const NOT_JSON = ['/tracker.js', '/docs', '/cli/login', '/', '/setup']
// Bun's HTTP parser closes the connection on a method it does not know (FOO), before any app
// runs: the odd methods here are the registered ones (PROPFIND; TRACE, which fetch refuses to send).
const METHODS = ['GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'TRACE'] as const
const FIELDS = [
  'affiliate_url',
  'click_id',
  'customer_key',
  'email',
  'transaction_id',
  'amount_cents',
  'currency',
  'occurred_at',
  'provider',
  'provider_payment_id',
  'livemode',
  'additional_data',
  'reason',
  'refund_reason',
  'state',
  'id_token',
  'name',
  'domain',
  'commission_type',
  'commission_rate',
  'event_type',
  'type',
  'account_id',
  'email',
  'partner_id',
  'short_link',
  'active',
  'rotate_by',
  'allowed_origins',
  'test_mode',
  'program_id',
  'stripe_webhook_secret',
  'id',
  'object',
  'data',
  '__proto__',
  'constructor',
] as const

function value(r: ReturnType<typeof random>, depth = 0): unknown {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null
    case 1:
      return r.next() < 0.5
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, 100, 4900, NaN])
    case 3:
      return r.pick([
        '',
        ' ',
        'USD',
        'eur',
        'https://shop.test/?aff=x',
        'percent',
        'chain',
        'click',
        'chargeback',
        '2026-06-01T12:00:00Z',
        '\u0000',
        '☃'.repeat(50),
        'x'.repeat(300),
      ])
    case 4:
      return `${r.pick(['svc_live_', 'clk_', 'cust_', 'txn_', ''])}${r.int(1e6)}`
    case 5:
      return String(f.programId)
    case 6:
      return Array.from({ length: r.int(4) }, () => value(r, depth + 1))
    case 7:
    case 8: {
      const o: Record<string, unknown> = {}
      for (let i = r.int(5); i > 0; i--)
        Object.defineProperty(o, r.pick(FIELDS), { value: value(r, depth + 1), enumerable: true, configurable: true, writable: true })
      return o
    }
  }
  return undefined
}

function body(r: ReturnType<typeof random>): string | Uint8Array | undefined {
  switch (r.int(8)) {
    case 0:
      return undefined
    case 1:
      return ''
    case 2:
      return r.pick(['{', 'null', '[]', '"x"', '{"a":', 'not json', '{}{}', '\ufeff{}'])
    case 3:
      return new Uint8Array(Array.from({ length: r.int(64) }, () => r.int(256)))
    case 4:
      return '['.repeat(5000 + r.int(20000)) + ']'.repeat(5000)
    default:
      return JSON.stringify(value(r, 1) ?? {})
  }
}

function headers(r: ReturnType<typeof random>, hasBody: boolean): Record<string, string> {
  const h: Record<string, string> = {}
  const auth = r.int(9)
  if (auth === 1) h.authorization = `Bearer ${f.apiKey}`
  if (auth === 2) h.authorization = `Bearer ${ADMIN_TOKEN}`
  if (auth === 3) h.authorization = `Bearer junk-${r.int(1e9)}`
  if (auth === 4) h.authorization = `Bearer ${'j'.repeat(1000 + r.int(8000))}`
  if (auth === 5) h.authorization = r.pick(['Bearer', 'Bearer ', 'Basic abc', 'bearer  x ', 'Bearer\tx'])
  if (hasBody && r.next() < 0.8)
    h['content-type'] = r.pick([
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      '',
      'application/json; charset=latin1',
    ])
  if (r.next() < 0.2) h.origin = r.pick(['https://shop.test', 'http://evil.test', 'null', 'https://a.shop.test'])
  if (r.next() < 0.1) h['x-forwarded-for'] = r.pick(['1.2.3.4', 'a, b, c', ','])
  if (r.next() < 0.1) h['stripe-signature'] = r.pick(['t=1,v1=abc', 'garbage', 't=99999999999999,v1=' + 'a'.repeat(64)])
  if (r.next() < 0.1) h['if-none-match'] = r.pick(['*', 'W/"x"', '"a", "b"'])
  if (r.next() < 0.1) h['accept-encoding'] = 'gzip, br'
  return h
}

function target(r: ReturnType<typeof random>): string {
  let path: string = r.pick(ROUTES).replace('PID', String(f.programId))
  const twist = r.int(10)
  if (twist === 0) path += '/'.repeat(1 + r.int(50))
  if (twist === 1) path = path.replace('/v1/', '//v1/')
  if (twist === 2) path += (path.includes('?') ? '&' : '?') + `state=${encodeURIComponent(JSON.stringify(value(r)) ?? '')}`
  if (twist === 3) path = path.replace('track', 'tr%61ck')
  if (twist === 4) path = path.toUpperCase()
  return path
}

const SEED = Number(process.env.SVC_FUZZ_SEED ?? 9)
const COUNT = Number(process.env.SVC_FUZZ_COUNT ?? 2000)

test(`${COUNT} random requests over every route: no 5xx, no reset, JSON with X-Request-ID (seed ${SEED})`, async () => {
  const r = random(SEED)
  const failures: string[] = []
  const one = async (n: number) => {
    const method = r.pick(METHODS)
    const path = target(r)
    const payload = method === 'GET' || method === 'HEAD' ? undefined : body(r)
    const sent = headers(r, payload !== undefined)
    const viaSocket = r.next() < 0.1 || method === 'TRACE'
    let status: number
    let text: string
    let requestId: string | null
    try {
      if (viaSocket) {
        const host = r.pick(['x', '', 'a:1', 'svc.test'])
        const bytes = payload === undefined ? new Uint8Array() : typeof payload === 'string' ? new TextEncoder().encode(payload) : payload
        const lines = Object.entries(sent)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')
        const reply = await rawRequest(
          api.port,
          `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${lines}Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
          [bytes],
        )
        if (reply.reset) throw new Error('reset')
        status = reply.status
        text = reply.text
        requestId = reply.headers['x-request-id'] ?? null
      } else {
        const response = await fetch(api.url + path, { method, headers: sent, body: payload as BodyInit | undefined })
        status = response.status
        text = await response.text()
        requestId = response.headers.get('x-request-id')
      }
    } catch (error) {
      failures.push(`#${n} ${method} ${path}: ${(error as Error).message}`)
      return
    }
    // The path the service routes on: repeated slashes folded, trailing ones cut.
    const bare = path
      .split('?')[0]
      .replace(/\/+/g, '/')
      .replace(/(.)\/$/, '$1')
    const jsonExpected = method !== 'HEAD' && status !== 304 && status !== 204 && !(NOT_JSON.includes(bare) && status < 400)
    let json = true
    if (jsonExpected)
      try {
        JSON.parse(text)
      } catch {
        json = false
      }
    // docs/api.md, Request IDs: GET /api/v1/cli/status answers its 200, 401 and 429 without one.
    const idExpected = !(bare === '/api/v1/cli/status' && method === 'GET' && status !== 500)
    if (status >= 500 || status === 0 || !json || (idExpected && !requestId)) {
      failures.push(`#${n} ${method} ${path} ${JSON.stringify(sent).slice(0, 120)} → ${status} ${text.slice(0, 120)} id=${requestId}`)
    }
  }
  let next = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < COUNT) await one(next++)
    }),
  )
  expect(failures.slice(0, 20)).toEqual([])
  expect(api.errors).toEqual([])
}, 120_000)
