// The route table (src/http/route-table.ts) is the one place a route's pipeline behaviour is
// written: every registered route has exactly one row, and what each row says (limit, request-id
// rule, CORS, envelope, 500 message) is what the server answers. A new endpoint without a row, a
// row without its route, or a row the pipeline does not follow fails here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { buildRoutes, createApp } from '../src/http/app.ts'
import { routeOf } from '../src/http/pipeline/route-lookup.ts'
import { limits, routeTable, type Route } from '../src/http/pipeline/route-table.ts'
import { startApi, type Api } from './helpers.ts'

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

const rows = Object.entries(routeTable).map(([key, row]) => {
  const [method, path] = key.split(' ')
  return { key, method, path, row }
})
/** A request path the row's route answers: each `:param` is 1, a trailing `*` is x. */
const sample = (path: string) => path.replace(/:\w+/g, '1').replace(/\*$/, 'x')
const origin = 'https://nowhere.example'

describe('one row per route', () => {
  test('every route Elysia registers has exactly one row, and every row a route', () => {
    const registered = buildRoutes(api.server.deps).routes.map((r) => `${r.method} ${r.path}`)
    expect(new Set(registered).size).toBe(registered.length)
    expect([...registered].sort()).toEqual(Object.keys(routeTable).sort())
  })

  test('a route is in the OpenAPI document exactly when its row has an operation id', () => {
    for (const route of buildRoutes(api.server.deps).routes) {
      const detail = route.hooks?.detail as Record<string, unknown> | undefined
      const documented = Boolean(detail && !detail.hide)
      expect({ route: `${route.method} ${route.path}`, documented }).toEqual({
        route: `${route.method} ${route.path}`,
        documented: Boolean(routeTable[`${route.method} ${route.path}`]?.id),
      })
    }
  })

  test('each row is found from a request path of its route; coded rows say their codes', () => {
    for (const { key, method, path, row } of rows) {
      const entry = routeOf(sample(path))
      expect({ key, found: entry?.path, row: entry?.methods[method] === row }).toEqual({ key, found: path, row: true })
      expect({ key, coded: row.envelope === 'coded' }).toEqual({ key, coded: row.codes !== undefined })
    }
  })

  test('the CLI routes share the CLI bucket, and so does an unknown path beside them', () => {
    for (const { key, path, row } of rows)
      if (path.startsWith('/api/v1/cli/')) expect({ key, limit: row.limit }).toEqual({ key, limit: 'cli' })
    expect(routeOf('/api/v1/cli/nothing-here')?.limit).toBe('cli')
  })
})

describe('routeOf', () => {
  test('static paths, :param templates, a wildcard below its prefix, nothing else', () => {
    expect(routeOf('/api/v1/track/click')?.limit).toBe('click')
    expect(routeOf('/api/v1/admin/programs/12/links')?.path).toBe('/api/v1/admin/programs/:id/links')
    expect(routeOf('/api/v1/admin/programs/12')?.path).toBe('/api/v1/admin/programs/:id')
    expect(routeOf('/api/v1/admin/programs/12/payouts.csv')?.path).toBe('/api/v1/admin/programs/:id/payouts.csv')
    expect(routeOf('/dashboard/programs/1/settings/api-key')?.path).toBe('/dashboard/programs/:id/settings/api-key')
    expect(routeOf('/dashboard/programs/1/nothing/deeper')?.path).toBe('/dashboard/*')
    expect(routeOf('/dashboard/programs')?.path).toBe('/dashboard/programs')
    expect(routeOf('/api/v1/admin/programs//links')).toBeNull()
    expect(routeOf('/api/v1/admin/programs/12/nothing')).toBeNull()
    expect(routeOf('/nothing')).toBeNull()
    expect(routeOf('/')?.path).toBe('/')
    expect(routeOf('/api/v1/admin' + '/programs/1'.repeat(400))).toBeNull()
  })
})

describe('what each row says is what the server answers', () => {
  const bodyOf = (method: string) => (method === 'GET' ? undefined : '{}')

  test('rate-limit headers, request ids, CORS and the error envelope of each route', async () => {
    for (const { key, method, path, row } of rows) {
      const reply = await api.call(method, sample(path), { body: bodyOf(method), headers: { origin, 'content-type': 'application/json' } })
      const vary = (reply.headers.get('vary') ?? '').split(',').map((v) => v.trim())
      const error = reply.body && typeof reply.body === 'object' && reply.body.error ? reply.body : null
      expect({
        key,
        limit: reply.headers.get('x-ratelimit-limit'),
        requestId: reply.headers.get('x-request-id') !== null,
        cors: [vary.includes('Origin'), reply.headers.get('access-control-allow-origin') === origin],
        envelope: error ? { platform: 'data' in error, coded: 'code' in error.error } : null,
      }).toEqual({
        key,
        limit: row.limit ? String(limits[row.limit].perMinute) : null,
        requestId: row.requestId !== 'only-on-500' || reply.status === 500,
        cors: [Boolean(row.browser), Boolean(row.browser)],
        envelope: error ? { platform: row.envelope !== 'typed', coded: row.envelope === 'typed' || row.codes !== undefined } : null,
      })
      if (reply.status < 300 && row.envelope === 'none') expect({ key, envelope: reply.body?.data }).toEqual({ key, envelope: undefined })
    }
  })

  test('only the browser routes answer a preflight', async () => {
    for (const path of new Set(rows.map((r) => r.path))) {
      const reply = await api.call('OPTIONS', sample(path), { headers: { origin, 'access-control-request-method': 'POST' } })
      const browser = routeOf(sample(path))?.browser
      expect({ path, status: reply.status, message: reply.body?.error?.message }).toEqual({
        path,
        status: browser ? 403 : 404,
        message: browser ? 'Origin not allowed for this program' : 'Route not found',
      })
    }
  })

  test("each route's 500: its message and envelope, with X-Request-ID whatever its rule", async () => {
    const { app, fetch } = createApp({ ...api.server.deps, log: () => {} })
    // The routes Elysia runs fail in its first hook; those the pipeline calls itself (direct.ts) never
    // reach Elysia, and fail reading a body whose stream breaks.
    app.onRequest(() => {
      throw new Error('injected')
    })
    const breaking = () =>
      new ReadableStream({
        pull(controller) {
          controller.error(new Error('injected'))
        },
      })
    const expected = (row: Route, id: string) => row.failure?.(id).message ?? 'Internal server error'
    for (const { key, method, path, row } of rows) {
      const reply = await fetch(
        new Request(`http://svc.local${sample(path)}`, {
          method,
          body: method === 'GET' ? undefined : breaking(),
          headers: { 'content-type': 'application/json' },
        }),
      )
      const id = reply.headers.get('x-request-id')
      const body = (await reply.json()) as { data?: null; error: Record<string, unknown> }
      expect({
        key,
        status: reply.status,
        id: typeof id,
        message: body.error.message,
        platform: 'data' in body,
        code: body.error.code,
      }).toEqual({
        key,
        status: 500,
        id: 'string',
        message: expected(row, id!),
        platform: row.envelope !== 'typed',
        code: row.envelope === 'typed' ? 'internal_error' : row.codes?.[500],
      })
    }
    // Anchors: the messages themselves, as docs/errors.md writes them.
    const status = await fetch(new Request('http://svc.local/api/v1/cli/status'))
    expect(((await status.json()) as any).error.message).toBe(`Failed to get status (request_id: ${status.headers.get('x-request-id')})`)
    const click = await fetch(new Request('http://svc.local/api/v1/track/click', { method: 'POST', body: breaking() }))
    expect(((await click.json()) as any).error.message).toBe('Click tracking failed')
  })
})
