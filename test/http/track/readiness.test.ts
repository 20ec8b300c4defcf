import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, type Api, withOwnServer } from '../../helpers.ts'
import { trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const readiness = (token?: string, headers?: Record<string, string>) => api.call('GET', '/api/v1/programs/me/readiness', { token, headers })
const checks = (body: any) => Object.fromEntries(body.data.checks.map((c: { id: string; ok: boolean }) => [c.id, c.ok]))

describe('GET /api/v1/programs/me/readiness errors (typed envelope, code invalid_key)', () => {
  const rows: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, 'Missing or malformed Authorization header. Expected: Bearer <api_token>.'],
    ['an empty token', { authorization: 'Bearer ' }, 'Missing API token.'],
    ['an unknown token', { authorization: 'Bearer svc_live_nope' }, 'Invalid API token.'],
  ]
  for (const [why, headers, message] of rows) {
    test(`${why} answers 401 "${message}"`, async () => {
      const reply = await readiness(undefined, headers)
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual({ error: { code: 'invalid_key', message } })
      expect(reply.headers.get('x-request-id')).toBeTruthy()
    })
  }
})

describe('the readiness checklist', () => {
  test('a new program is not ready: key, origins and link are fine, no click, lead or sale yet', async () => {
    const f = await api.setupProgram()
    const reply = await readiness(f.apiKey)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ program_id: f.programId, ready: false })
    expect(checks(reply.body)).toEqual({
      api_key: true,
      browser_origins: true,
      active_link: true,
      first_click: false,
      client_addresses: true,
      first_lead: false,
      first_sale: false,
      live_data: false,
    })
  })

  test('click, lead and sale make it ready, and the counts say so', async () => {
    const f = await api.setupProgram()
    const key = unique('cust')
    await k.customer(f, key)
    await k.sale(f, { transaction_id: unique('txn'), customer_key: key })
    const reply = await readiness(f.apiKey)
    expect(reply.body.data.ready).toBe(true)
    expect(reply.body.data.counts).toEqual({
      live: { clicks: 1, leads: 1, provisional_leads: 0, sales: 1 },
      test: { clicks: 0, leads: 0, provisional_leads: 0, sales: 0 },
      processor_events: 0,
    })
  })

  test('test-mode data counts apart and does not make the program live', async () => {
    const f = await api.setupProgram()
    const clickId = await k.clickId(f, { additional_data: { test_mode: true } })
    await k.lead(f, { click_id: clickId, customer_key: unique('c'), additional_data: { test_mode: true } })
    const reply = await readiness(f.apiKey)
    expect(checks(reply.body)).toMatchObject({ first_click: false, first_lead: false, live_data: false })
    expect(reply.body.data.counts.test).toMatchObject({ clicks: 1, leads: 1 })
    expect(reply.body.data.checks.find((c: { id: string }) => c.id === 'live_data').message).toBe('Only test-mode data so far.')
  })

  test("the synthetic chain's own link does not make a program without partner links pass active_link", async () => {
    const f = await api.setupProgram()
    await api.admin('PATCH', `/links/${f.linkId}`, { active: false })
    const chain = await api.call('POST', '/api/v1/cli/test-event', { token: f.apiKey, body: { type: 'chain' } })
    expect(chain.status).toBe(200)
    expect(checks((await readiness(f.apiKey)).body).active_link).toBe(false)
  })

  test('a program whose only link is off fails active_link', async () => {
    const f = await api.setupProgram()
    await api.admin('PATCH', `/links/${f.linkId}`, { active: false })
    expect(checks((await readiness(f.apiKey)).body).active_link).toBe(false)
  })

  test('a key marked for rotation fails api_key with warnings; past its deadline it answers 401 api_key_rotation_required', async () => {
    const f = await api.setupProgram()
    const rotateBy = new Date(api.clock.now() + days(7)).toISOString()
    await api.admin('POST', `/programs/${f.programId}/api-key/rotation`, { rotate_by: rotateBy })
    const marked = await readiness(f.apiKey)
    expect(checks(marked.body).api_key).toBe(false)
    const message = marked.body.data.checks.find((c: { id: string }) => c.id === 'api_key').message
    expect(message).toEndWith(`regenerate it: POST /api/v1/admin/programs/${f.programId}/api-key (operator API).`)
    expect(marked.body.warnings[0].code).toBe('api_key_rotation_required')
    api.clock.advance(days(8))
    const retired = await readiness(f.apiKey)
    expect(retired.status).toBe(401)
    expect(retired.body.error.code).toBe('api_key_rotation_required')
  })
})

test('a failure answers 500 "Failed to compute readiness. Retry shortly." with internal_error and retry_after_seconds 10', async () => {
  await withOwnServer(async (broken) => {
    const f = await broken.setupProgram()
    broken.server.deps.database.client.exec('DROP TABLE refunds; DROP TABLE processor_events')
    const reply = await broken.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({
      error: { code: 'internal_error', message: 'Failed to compute readiness. Retry shortly.', retry_after_seconds: 10 },
    })
    expect(reply.headers.get('x-request-id')).toBeTruthy()
  })
})
