import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, startApi, type Api } from '../../helpers.ts'
import { expectCli500, expectError, sqlOn, startCliApi } from './fixtures.ts'

let api: Api
beforeAll(async () => {
  api = await startCliApi()
})
afterAll(() => api.stop())

const status = (headers: Record<string, string>) => api.call('GET', '/api/v1/cli/status', { headers })
const zero = { clicks: 0, leads: 0, provisional_leads: 0, sales: 0, commissions: 0 }

describe('GET /api/v1/cli/status', () => {
  test('answers the program behind the key with its counts, test and live apart, and no X-Request-ID', async () => {
    const program = await api.setupProgram({ name: 'Status Shop' })
    const reply = await api.call('GET', '/api/v1/cli/status', { token: program.apiKey })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      data: {
        program_id: program.programId,
        program_name: 'Status Shop',
        advertiser_id: program.advertiserId,
        account_id: program.accountId,
        domain: 'shop.test',
        lead_auth: 'server_required',
        attribution_window_days: 60,
        live: zero,
        test: zero,
      },
      error: null,
    })
    expect(reply.headers.get('x-request-id')).toBeNull()
    expect(reply.headers.get('x-ratelimit-limit')).toBeTruthy()
  })

  test('counts live traffic from the tracking endpoints apart from test-mode records', async () => {
    const program = await api.setupProgram()
    const url = `https://shop.test/?aff=${program.shortLink}`
    const clickIds: string[] = []
    for (let i = 0; i < 3; i++)
      clickIds.push((await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: url } })).body.click_id)
    await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: url, additional_data: { test_mode: true } } })
    // A browser-mode lead under server_required stays provisional and does not count as a lead.
    await api.call('POST', '/api/v1/track/lead', { body: { click_id: clickIds[0], customer_key: 'cus_browser' } })
    expect(
      (await api.call('POST', '/api/v1/track/lead', { token: program.apiKey, body: { click_id: clickIds[1], customer_key: 'cus_1' } }))
        .status,
    ).toBe(200)
    const sale = await api.call('POST', '/api/v1/track/sale', {
      token: program.apiKey,
      body: { transaction_id: `txn_${program.programId}`, amount_cents: 1000, customer_key: 'cus_1' },
    })
    expect(sale.status).toBe(200)
    await api.call('POST', '/api/v1/cli/test-event', { token: program.apiKey, body: { type: 'chain' } })

    const { live, test } = (await api.call('GET', '/api/v1/cli/status', { token: program.apiKey })).body.data
    expect(live).toEqual({ clicks: 3, leads: 1, provisional_leads: 1, sales: 1, commissions: 1 })
    expect(test).toEqual({ clicks: 2, leads: 1, provisional_leads: 0, sales: 1, commissions: 1 })
  })

  test('a missing or non-Bearer header answers 401 Missing or malformed Authorization header, without X-Request-ID', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic abc' }, { authorization: 'svc_live_abc' }]) {
      const reply = await status(headers)
      expectError(reply, 401, 'UnauthorizedError', 'Missing or malformed Authorization header. Expected: Bearer <api_token>')
      expect(reply.headers.get('x-request-id')).toBeNull()
    }
  })

  test('an empty token answers 401 Missing API token', async () => {
    expectError(await status({ authorization: 'Bearer   ' }), 401, 'UnauthorizedError', 'Missing API token')
  })

  test('an unknown or replaced key answers 401 Invalid API key. with the advice to regenerate it', async () => {
    const program = await api.setupProgram()
    await api.admin('POST', `/programs/${program.programId}/api-key`)
    for (const key of ['svc_live_unknown', program.apiKey]) {
      const reply = await status({ authorization: `Bearer ${key}` })
      expect(reply.status).toBe(401)
      expect(reply.body.data).toBeNull()
      expect(reply.body.error).toMatchObject({ status: 401, name: 'UnauthorizedError' })
      expect(reply.body.error.message).toStartWith('Invalid API key. ')
      expect(reply.body.error.message).toContain('Regenerate')
      expect(reply.body.error.message).toContain('POST /api/v1/admin/programs/<program_id>/api-key')
      expect(reply.body.error.message).not.toContain('settings')
      expect(reply.headers.get('x-request-id')).toBeNull()
    }
  })

  test('a retired key answers the typed 401 api_key_rotation_required; before its deadline it works with warnings', async () => {
    const program = await api.setupProgram()
    const rotateBy = new Date(api.clock.now() + days(7)).toISOString()
    await api.admin('POST', `/programs/${program.programId}/api-key/rotation`, { rotate_by: rotateBy })
    const before = await status({ authorization: `Bearer ${program.apiKey}` })
    expect(before.status).toBe(200)
    expect(before.body.warnings).toEqual([expect.objectContaining({ code: 'api_key_rotation_required', rotate_by: rotateBy })])
    api.clock.advance(days(7))
    const after = await status({ authorization: `Bearer ${program.apiKey}` })
    expect(after.status).toBe(401)
    expect(after.body).toEqual({
      error: {
        code: 'api_key_rotation_required',
        message: 'api_key_rotation_required',
        hint: expect.any(String),
        docs_url: expect.stringContaining('#api_key_rotation_required'),
      },
    })
    expect(after.headers.get('x-request-id')).toBeNull()
  })

  test('its 429 carries no X-Request-ID either', async () => {
    const limited = await startApi()
    const program = await limited.setupProgram()
    let reply = await limited.call('GET', '/api/v1/cli/status', { token: program.apiKey })
    for (let i = 0; i < 60 && reply.status !== 429; i++) reply = await limited.call('GET', '/api/v1/cli/status', { token: program.apiKey })
    expect(reply.status).toBe(429)
    expect(reply.body.error).toMatchObject({ code: 'rate_limited', status: 429 })
    expect(reply.headers.get('x-request-id')).toBeNull()
    await limited.stop()
  })

  test('answers 500 with the request id in the message, details and the X-Request-ID header', async () => {
    const broken = await startCliApi()
    const program = await broken.setupProgram()
    sqlOn(broken, 'ALTER TABLE daily_counts RENAME TO daily_counts_gone')
    expectCli500(await broken.call('GET', '/api/v1/cli/status', { token: program.apiKey }), 'Failed to get status')
    await broken.stop()
  })
})
