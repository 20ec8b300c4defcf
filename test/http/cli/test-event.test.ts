import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, minutes, type Api, type Fixture } from '../../helpers.ts'
import { expectCli500, expectError, sqlOn, startCliApi } from './fixtures.ts'

let api: Api
beforeAll(async () => {
  api = await startCliApi()
})
afterAll(() => api.stop())

const send = (program: Fixture | string, body: unknown) =>
  api.call('POST', '/api/v1/cli/test-event', { token: typeof program === 'string' ? program : program.apiKey, body })
const statusOf = async (program: Fixture) => (await api.call('GET', '/api/v1/cli/status', { token: program.apiKey })).body.data
const chain = (program: Fixture) => send(program, { type: 'chain' })
const CAP_MESSAGE = 'Too many synthetic chains (max 10/program/hour).'

describe('POST /api/v1/cli/test-event: credentials and validation', () => {
  test('answers the program-key 401s of docs/errors.md', async () => {
    const call = (headers: Record<string, string>) => api.call('POST', '/api/v1/cli/test-event', { headers, body: { event_type: 'click' } })
    expectError(await call({}), 401, 'UnauthorizedError', 'Missing or malformed Authorization header. Expected: Bearer <api_token>')
    expectError(await call({ authorization: 'Bearer ' }), 401, 'UnauthorizedError', 'Missing API token')
    const unknown = await call({ authorization: 'Bearer svc_live_unknown' })
    expect(unknown.status).toBe(401)
    expect(unknown.body.error.message).toStartWith('Invalid API key.')
    const program = await api.setupProgram()
    await api.admin('POST', `/programs/${program.programId}/api-key/rotation`, {
      rotate_by: new Date(api.clock.now() + days(1)).toISOString(),
    })
    api.clock.advance(days(1))
    const retired = await send(program, { event_type: 'click' })
    expect(retired.status).toBe(401)
    expect(retired.body.error).toMatchObject({ code: 'api_key_rotation_required', message: 'api_key_rotation_required' })
  })

  test('a missing or unknown event_type answers 400 naming the value', async () => {
    const program = await api.setupProgram()
    const cases: [unknown, string][] = [
      [{ event_type: 'refund' }, 'refund'],
      [{ event_type: 'CLICK' }, 'CLICK'],
      [{ event_type: 5 }, '5'],
      [{}, 'undefined'],
      [{ type: 'single' }, 'undefined'],
    ]
    for (const [body, value] of cases) {
      expectError(await send(program, body), 400, 'BadRequestError', `Invalid event_type: ${value}. Valid: click, lead, sale`)
    }
    expect((await statusOf(program)).test.clicks).toBe(0)
  })
})

describe('single test events', () => {
  test('click records one test-mode click on the program fixture link', async () => {
    const program = await api.setupProgram()
    const reply = await send(program, { event_type: 'click' })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({
      event_type: 'click',
      test_mode: true,
      click_id: expect.stringMatching(/^clk_/),
      partner_id: expect.any(Number),
      affiliate_url: expect.stringMatching(/^https:\/\/shop\.test\/\?aff=svc-test-/),
    })
    expect(reply.body.data.partner_id).not.toBe(program.partnerId)
    const status = await statusOf(program)
    expect(status.test.clicks).toBe(1)
    expect(status.live.clicks).toBe(0)
  })

  test('lead records a test click and a settled test lead', async () => {
    const program = await api.setupProgram()
    const reply = await send(program, { event_type: 'lead' })
    expect(reply.body.data).toEqual({
      event_type: 'lead',
      test_mode: true,
      click_id: expect.any(String),
      customer_key: expect.stringMatching(/^svc_test_/),
      customer_id: expect.any(Number),
      status: 'lead',
    })
    const status = await statusOf(program)
    expect(status.test).toMatchObject({ clicks: 1, leads: 1, sales: 0 })
    expect(status.live).toMatchObject({ clicks: 0, leads: 0 })
  })

  test('sale records a test sale and its commission through the sale path', async () => {
    const program = await api.setupProgram({ commission_rate: 10 })
    const reply = await send(program, { event_type: 'sale' })
    expect(reply.body.data).toEqual({
      event_type: 'sale',
      test_mode: true,
      click_id: expect.any(String),
      sale_id: expect.any(Number),
      transaction_id: expect.stringMatching(/^test_txn_\d+$/),
      amount_cents: 4900,
      currency: 'USD',
      commission: { commission_id: expect.any(Number), partner_id: expect.any(Number), amount_cents: 490 },
    })
    const status = await statusOf(program)
    expect(status.test).toMatchObject({ clicks: 1, sales: 1, commissions: 1 })
    expect(status.live).toMatchObject({ clicks: 0, sales: 0, commissions: 0 })
  })

  test('answers 500 Failed to process test event with the request id when the database refuses', async () => {
    const broken = await startCliApi()
    const program = await broken.setupProgram()
    sqlOn(broken, "CREATE TRIGGER no_clicks BEFORE INSERT ON clicks BEGIN SELECT RAISE(ABORT, 'injected'); END")
    expectCli500(
      await broken.call('POST', '/api/v1/cli/test-event', { token: program.apiKey, body: { event_type: 'click' } }),
      'Failed to process test event',
    )
    await broken.stop()
  })
})

describe('the synthetic chain', () => {
  test('runs click → lead → sale → commission and reports each step', async () => {
    const program = await api.setupProgram({ commission_type: 'fixed', commission_rate: 5 })
    const reply = await chain(program)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({
      type: 'chain',
      test_mode: true,
      chains_remaining: 9,
      steps: [
        { step: 'click', ok: true, click_id: expect.any(String), affiliate_url: expect.any(String), partner_id: expect.any(Number) },
        { step: 'lead', ok: true, customer_key: expect.any(String), customer_id: expect.any(Number), status: 'lead' },
        {
          step: 'sale',
          ok: true,
          sale_id: expect.any(Number),
          transaction_id: expect.stringMatching(/^test_txn_/),
          amount_cents: 4900,
          currency: 'USD',
        },
        { step: 'commission', ok: true, commission_id: expect.any(Number), partner_id: expect.any(Number), amount_cents: 500 },
      ],
    })
    const status = await statusOf(program)
    expect(status.test).toEqual({ clicks: 1, leads: 1, provisional_leads: 0, sales: 1, commissions: 1 })
    expect(status.live).toEqual({ clicks: 0, leads: 0, provisional_leads: 0, sales: 0, commissions: 0 })
  })

  test("the chain's own link is test data: a real visitor's click on it, and the lead and sale that follow, never count as live", async () => {
    const program = await api.setupProgram({ commission_type: 'recurring_fixed', commission_rate: 5 })
    const steps = (await chain(program)).body.data.steps
    const url = steps[0].affiliate_url as string
    const click = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: url } })
    expect(click.status).toBe(200)
    const customerKey = `visitor-${program.programId}`
    expect(
      (
        await api.call('POST', '/api/v1/track/lead', {
          token: program.apiKey,
          body: { click_id: click.body.click_id, customer_key: customerKey },
        })
      ).status,
    ).toBe(200)
    const sale = await api.call('POST', '/api/v1/track/sale', {
      token: program.apiKey,
      body: { transaction_id: `txn-${customerKey}`, customer_key: customerKey, amount_cents: 1000 },
    })
    expect(sale.status).toBe(200)
    const status = await statusOf(program)
    expect(status.live).toEqual({ clicks: 0, leads: 0, provisional_leads: 0, sales: 0, commissions: 0 })
    expect(status.test).toMatchObject({ clicks: 2, leads: 2, sales: 2, commissions: 2 })
    // Another partner's link of the same program stays live.
    const live = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${program.shortLink}` } })
    expect(live.status).toBe(200)
    expect((await statusOf(program)).live.clicks).toBe(1)
  })

  test('is capped at 10 per program per hour with the typed 429 and its own retry_after_seconds', async () => {
    const program = await api.setupProgram()
    const other = await api.setupProgram()
    for (let i = 0; i < 5; i++) expect((await chain(program)).status).toBe(200)
    api.clock.advance(minutes(20))
    for (let i = 0; i < 5; i++) expect((await chain(program)).status).toBe(200)
    api.clock.advance(minutes(10))
    const refused = await chain(program)
    expect(refused.status).toBe(429)
    // The five oldest runs leave the window 30 minutes from now.
    expect(refused.body).toEqual({ error: { code: 'rate_limited', message: CAP_MESSAGE, status: 429, retry_after_seconds: 1800 } })
    expect(refused.headers.get('retry-after')).toBe('1800')
    expect((await statusOf(program)).test.sales).toBe(10)
    expect((await chain(other)).status).toBe(200)
    expect((await send(program, { event_type: 'sale' })).status).toBe(200)

    api.clock.advance(minutes(30))
    expect((await chain(program)).body.data.chains_remaining).toBe(4)
  })

  test('prepares the fixture before the cap: a refused chain still re-enables the fixture link', async () => {
    const program = await api.setupProgram()
    for (let i = 0; i < 10; i++) await chain(program)
    const db = api.server.deps.database.client
    const fixture = db.prepare('SELECT link_id, refreshed_at FROM test_fixtures WHERE program_id = ?').get(program.programId) as {
      link_id: number
      refreshed_at: number
    }
    await api.admin('PATCH', `/links/${fixture.link_id}`, { active: false })
    api.clock.advance(minutes(1))
    expect((await chain(program)).status).toBe(429)
    const after = db
      .prepare('SELECT l.active, f.refreshed_at FROM test_fixtures f JOIN links l ON l.id = f.link_id WHERE f.program_id = ?')
      .get(program.programId)
    expect(after).toEqual({ active: 1, refreshed_at: api.clock.now() })
  })

  test('a failing step answers 500 Failed to run synthetic chain; the steps so far go to the log line, details keep request_id only', async () => {
    const broken = await startCliApi()
    const program = await broken.setupProgram()
    sqlOn(broken, "CREATE TRIGGER no_sales BEFORE INSERT ON sales BEGIN SELECT RAISE(ABORT, 'injected'); END")
    const reply = await broken.call('POST', '/api/v1/cli/test-event', { token: program.apiKey, body: { type: 'chain' } })
    const id = reply.headers.get('x-request-id')
    expect(reply.status).toBe(500)
    expect(reply.body.error.message).toBe(`Failed to run synthetic chain (request_id: ${id})`)
    expect(reply.body.error.details).toEqual({ request_id: id })
    expect(broken.errors).toHaveLength(1)
    expect(broken.errors[0]).toMatchObject({
      request_id: id,
      steps: [
        expect.objectContaining({ step: 'click', ok: true }),
        expect.objectContaining({ step: 'lead', ok: true }),
        { step: 'sale', ok: false },
      ],
    })
    await broken.stop()
  })

  test('a chain refused before any step by a broken database answers its own 500', async () => {
    const broken = await startCliApi()
    const program = await broken.setupProgram()
    sqlOn(broken, 'DROP TABLE chain_runs')
    expectCli500(
      await broken.call('POST', '/api/v1/cli/test-event', { token: program.apiKey, body: { type: 'chain' } }),
      'Failed to run synthetic chain',
    )
    await broken.stop()
  })
})
