import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApi, type Api } from '../../helpers.ts'

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

describe('every failure ends in the platform envelope', () => {
  test('an unknown route answers 404 NotFoundError with data null', async () => {
    const reply = await api.call('GET', '/api/v1/nothing-here')
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Route not found', details: {} } })
  })

  test('malformed JSON answers 400 BadRequestError, never a stack trace', async () => {
    const reply = await api.call('POST', '/api/v1/admin/accounts', {
      body: '{"email":',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.data).toBeNull()
    expect(reply.body.error).toEqual({ status: 400, name: 'BadRequestError', message: 'Malformed JSON body', details: {} })
  })

  test('a form body answers 400 naming the content type', async () => {
    const reply = await api.call('POST', '/api/v1/admin/accounts', {
      body: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe('Content-Type must be application/json')
  })

  test('a body over 64 KiB answers 400 and is not read further', async () => {
    const reply = await api.call('POST', '/api/v1/admin/accounts', {
      body: JSON.stringify({ email: 'x'.repeat(70_000) }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-admin-token-0123456789' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe('Request body too large (limit 65536 bytes)')
  })

  test('a malformed body on a sale with a valid key answers 400 with error.code in the platform envelope', async () => {
    const f = await api.setupProgram()
    const reply = await api.call('POST', '/api/v1/track/sale', {
      body: '{oops',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.apiKey}` },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatchObject({ message: 'Malformed JSON body', code: 'invalid_request' })
    expect(reply.body.data).toBeNull()
  })

  test('credentials are checked before the body is: a bad body without a valid key answers the 401', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/api/v1/track/sale', {}, 'Missing or malformed Authorization header. Expected: Bearer <token>'],
      ['/api/v1/track/refund', { authorization: 'Bearer whatever' }, 'Invalid API token'],
      ['/api/v1/admin/accounts', {}, 'Invalid or missing admin token'],
    ]
    for (const [path, headers, message] of cases) {
      for (const [body, type] of [
        ['{oops', 'application/json'],
        ['a=b', 'application/x-www-form-urlencoded'],
        [JSON.stringify({ x: 'y'.repeat(70_000) }), 'application/json'],
      ]) {
        const reply = await api.call('POST', path, { body, headers: { 'content-type': type, ...headers } })
        expect({ path, type, status: reply.status, message: reply.body.error.message }).toEqual({ path, type, status: 401, message })
      }
    }
  })

  test('a route that reads no body answers as it always does, whatever body comes with it', async () => {
    const gone = await api.call('POST', '/api/v1/cli/stripe-connect', { body: '{oops', headers: { 'content-type': 'application/json' } })
    expect(gone.status).toBe(410)
    const start = await api.call('POST', '/api/v1/cli/auth/start', {
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(start.status).toBe(200)
  })
})

test('a trailing slash is the same route for the limits, error codes and request ids', async () => {
  const f = await api.setupProgram()
  const sale = await api.call('POST', '/api/v1/track/sale/', {
    body: { transaction_id: 'x', amount_cents: 1, customer_key: 'nobody' },
    token: f.apiKey,
  })
  expect(sale.status).toBe(400)
  expect(sale.body.error.code).toBe('no_attribution')
  expect(sale.headers.get('x-ratelimit-limit')).toBe('120')
  const readiness = await api.call('GET', '/api/v1/programs/me/readiness/', { token: f.apiKey })
  expect(readiness.headers.get('x-ratelimit-remaining')).toBe('29')
  const status = await api.call('GET', '/api/v1/cli/status/', { token: f.apiKey })
  expect(status.status).toBe(200)
  expect(status.headers.get('x-request-id')).toBeNull()
})

describe('request ids', () => {
  test('the cli/status exception is GET only: another method on that path carries X-Request-ID', async () => {
    const reply = await api.call('POST', '/api/v1/cli/status', { body: {} })
    expect(reply.status).toBe(404)
    expect(reply.headers.get('x-request-id')).toBeTruthy()
  })

  test('tracking and CLI responses carry X-Request-ID, errors included', async () => {
    for (const path of ['/api/v1/track/click', '/api/v1/cli/auth/poll']) {
      const reply = await api.call(path.includes('poll') ? 'GET' : 'POST', path, { body: path.includes('poll') ? undefined : {} })
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  test('GET /api/v1/cli/status answers its 401 without X-Request-ID', async () => {
    const reply = await api.call('GET', '/api/v1/cli/status')
    expect(reply.status).toBe(401)
    expect(reply.headers.get('x-request-id')).toBeNull()
  })
})

describe('CORS', () => {
  test('a preflight from an origin no program accepts gets no Access-Control-Allow-Origin', async () => {
    const reply = await api.call('OPTIONS', '/api/v1/track/click', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(reply.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a preflight from a program domain, its https subdomains or an allowed origin is answered with that origin', async () => {
    await api.setupProgram({ domain: 'cors-shop.test', allowed_origins: ['http://localhost:5173'] })
    for (const origin of ['https://cors-shop.test', 'https://www.cors-shop.test', 'http://localhost:5173']) {
      const reply = await api.call('OPTIONS', '/api/v1/track/lead', { headers: { origin, 'access-control-request-method': 'POST' } })
      expect(reply.status).toBe(204)
      expect(reply.headers.get('access-control-allow-origin')).toBe(origin)
    }
    for (const origin of ['http://cors-shop.test', 'http://127.0.0.1:5173', 'https://notcors-shop.test']) {
      const reply = await api.call('OPTIONS', '/api/v1/track/lead', { headers: { origin, 'access-control-request-method': 'POST' } })
      expect(reply.headers.get('access-control-allow-origin')).toBeNull()
    }
  })

  test('sale is never offered to browsers', async () => {
    const reply = await api.call('OPTIONS', '/api/v1/track/sale', {
      headers: { origin: 'https://cors-shop.test', 'access-control-request-method': 'POST' },
    })
    expect(reply.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('OPTIONS elsewhere than the browser routes is a route that does not exist: 404, with or without an Origin', async () => {
    for (const path of ['/nope', '/healthz', '/api/v1/track/sale', '/api/v1/admin/programs']) {
      for (const headers of [{}, { origin: 'https://cors-shop.test' }] as Record<string, string>[]) {
        const reply = await api.call('OPTIONS', path, { headers })
        expect({ path, status: reply.status, message: reply.body?.error?.message }).toEqual({
          path,
          status: 404,
          message: 'Route not found',
        })
      }
    }
  })
})

test('GET /openapi.json is generated from the routes, with their body schemas', async () => {
  const reply = await api.call('GET', '/openapi.json')
  expect(reply.status).toBe(200)
  expect(reply.body.openapi).toBe('3.1.0')
  const create = reply.body.paths['/api/v1/admin/programs'].post
  expect(create.requestBody.content['application/json'].schema.properties.commission_type).toBeDefined()
  expect(reply.body.paths['/api/v1/admin/programs/{id}'].get.parameters[0].name).toBe('id')
  const sale = reply.body.paths['/api/v1/track/sale'].post
  expect(sale.requestBody.content['application/json'].schema.properties.amount_cents.type).toBe('integer')
  expect(sale.responses[200].content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/SaleData')
  expect(reply.body.components.schemas.SaleData.properties.commission).toBeDefined()
  const docs = await fetch(`${api.url}/docs`)
  expect(docs.headers.get('content-type')).toContain('text/html')
  expect(await docs.text()).toContain('id="api_key_rotation_required"')
})
