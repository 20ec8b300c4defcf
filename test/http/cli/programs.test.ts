import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, type Api } from '../../helpers.ts'
import { expectCli500, expectError, login, sqlOn, startCliApi } from './fixtures.ts'

let api: Api
beforeAll(async () => {
  api = await startCliApi()
})
afterAll(() => api.stop())

const fields = { name: 'Acme', domain: 'acme.test', commission_type: 'percent', commission_rate: 20 }
const init = (token: string | undefined, body: unknown = fields, headers?: Record<string, string>) =>
  api.call('POST', '/api/v1/cli/init', { token, body, headers })
const list = (token?: string, headers?: Record<string, string>) => api.call('GET', '/api/v1/cli/programs', { token, headers })

/** Removes a row the login token points at, as a damaged or hand-edited database would. */
const withoutForeignKeys = (statement: string) => sqlOn(api, `PRAGMA foreign_keys = OFF; ${statement}; PRAGMA foreign_keys = ON`)

describe('POST /api/v1/cli/init', () => {
  test('creates a program for the account and answers 200 with program_id and the API key, shown once', async () => {
    const { token, advertiserId } = await login(api)
    const reply = await init(token, { ...fields, domain: 'https://Shop.Acme.test/', advertiser_id: advertiserId })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ data: { program_id: expect.any(Number), api_key: expect.stringMatching(/^svc_live_/) }, error: null })
    const status = await api.call('GET', '/api/v1/cli/status', { token: reply.body.data.api_key })
    expect(status.body.data).toMatchObject({ program_id: reply.body.data.program_id, program_name: 'Acme', domain: 'shop.acme.test' })
  })

  test('without a Bearer login token answers 401 Authentication required', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic abc' }, { authorization: 'Bearer ' }]) {
      expectError(await init(undefined, fields, headers), 401, 'UnauthorizedError', 'Authentication required — run `svc login` first')
    }
  })

  test('an unknown, a program API key or an expired login token answers 401 Invalid or expired token', async () => {
    const { token } = await login(api)
    const program = await api.setupProgram()
    for (const bad of ['svc_login_nope', program.apiKey]) {
      expectError(await init(bad), 401, 'UnauthorizedError', 'Invalid or expired token — run `svc login` again')
    }
    api.clock.advance(days(30))
    expectError(await init(token), 401, 'UnauthorizedError', 'Invalid or expired token — run `svc login` again')
  })

  test('a token whose account is gone answers 401 account not found', async () => {
    const { token, accountId } = await login(api)
    withoutForeignKeys(`DELETE FROM advertisers WHERE account_id = ${accountId}; DELETE FROM accounts WHERE id = ${accountId}`)
    expectError(await init(token), 401, 'UnauthorizedError', 'the service not found — run `svc login` again')
  })

  test('an account without an advertiser answers 403', async () => {
    const { token, accountId } = await login(api)
    withoutForeignKeys(`DELETE FROM advertisers WHERE account_id = ${accountId}`)
    expectError(await init(token), 403, 'ForbiddenError', 'No advertiser found for this account — run `svc login` again')
  })

  test("an advertiser_id other than the account's own answers 403", async () => {
    const { token, advertiserId } = await login(api)
    const other = await login(api)
    for (const advertiser_id of [other.advertiserId, advertiserId + 1000, String(advertiserId)]) {
      expectError(
        await init(token, { ...fields, advertiser_id }),
        403,
        'ForbiddenError',
        'advertiser_id does not match the authenticated account',
      )
    }
  })

  test('a missing or empty field answers 400 Missing required fields', async () => {
    const { token } = await login(api)
    const bodies: unknown[] = [
      {},
      '"a JSON string"',
      '[]',
      { ...fields, domain: '' },
      { ...fields, name: '  ' },
      { ...fields, commission_rate: null },
      { ...fields, name: 42 },
    ]
    for (const key of Object.keys(fields)) bodies.push({ ...fields, [key]: undefined })
    for (const body of bodies) {
      expectError(
        await init(token, body),
        400,
        'BadRequestError',
        'Missing required fields: name, domain, commission_type, commission_rate',
      )
    }
  })

  test('an unknown commission_type answers 400 naming the value and the valid ones', async () => {
    const { token } = await login(api)
    expectError(
      await init(token, { ...fields, commission_type: 'flat' }),
      400,
      'BadRequestError',
      'Invalid commission_type: flat. Valid: percent, fixed, recurring_percent, recurring_fixed',
    )
  })

  test('a commission_rate that is not a positive number answers 400', async () => {
    const { token } = await login(api)
    for (const commission_rate of [0, -5, '20', true]) {
      expectError(await init(token, { ...fields, commission_rate }), 400, 'BadRequestError', 'commission_rate must be a positive number')
    }
  })

  test('a domain that is no host name answers 400', async () => {
    const { token } = await login(api)
    expectError(
      await init(token, { ...fields, domain: 'not a domain' }),
      400,
      'BadRequestError',
      'domain must be a host name such as shop.example, or a URL such as http://localhost:3901',
    )
  })

  test('a suspended account answers 403 ACCOUNT_BLOCKED with a token issued before the suspension', async () => {
    const { token, accountId } = await login(api)
    await api.admin('POST', `/accounts/${accountId}/suspend`)
    for (const reply of [await init(token), await list(token)]) {
      expectError(reply, 403, 'ForbiddenError', 'Your account has been suspended.')
      expect(reply.body.error.details).toEqual({ code: 'ACCOUNT_BLOCKED' })
    }
  })

  test('answers 500 with the request id when the program cannot be stored; nothing is created', async () => {
    const broken = await startCliApi()
    const { token } = await login(broken)
    sqlOn(broken, "CREATE TRIGGER no_programs BEFORE INSERT ON api_keys BEGIN SELECT RAISE(ABORT, 'injected'); END")
    expectCli500(await broken.call('POST', '/api/v1/cli/init', { token, body: fields }), 'Failed to create program')
    expect((await broken.call('GET', '/api/v1/cli/programs', { token })).body.data).toEqual([])
    await broken.stop()
  })
})

describe('GET /api/v1/cli/programs', () => {
  test("lists the account's programs only, oldest first, without keys", async () => {
    const mine = await login(api)
    const theirs = await login(api)
    await init(mine.token, { ...fields, name: 'First' })
    await init(mine.token, { ...fields, name: 'Second', commission_type: 'recurring_fixed', commission_rate: 5 })
    await init(theirs.token, { ...fields, name: 'Not mine' })
    await api.setupProgram()
    const reply = await list(mine.token)
    expect(reply.status).toBe(200)
    expect(reply.body.data.map((p: { name: string }) => p.name)).toEqual(['First', 'Second'])
    expect(reply.body.data[1]).toEqual({
      program_id: expect.any(Number),
      advertiser_id: mine.advertiserId,
      name: 'Second',
      domain: 'acme.test',
      commission_type: 'recurring_fixed',
      commission_rate: 5,
      lead_auth: 'server_required',
      attribution_window_days: 60,
      partner_signup: 'off',
      fraud_review: 'hold',
      created_at: new Date(api.clock.now()).toISOString(),
    })
    expect((await list((await login(api)).token)).body).toEqual({ data: [], error: null })
  })

  test('without an Authorization header answers 401 Missing Authorization header', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Token abc' }, { authorization: 'Bearer' }]) {
      expectError(await list(undefined, headers), 401, 'UnauthorizedError', 'Missing Authorization header. Run `svc login` first.')
    }
  })

  test('an unknown or expired token answers 401 Invalid or expired token', async () => {
    const { token } = await login(api)
    expectError(await list('svc_login_nope'), 401, 'UnauthorizedError', 'Invalid or expired token. Run `svc login` to refresh.')
    api.clock.advance(days(30))
    expectError(await list(token), 401, 'UnauthorizedError', 'Invalid or expired token. Run `svc login` to refresh.')
  })

  test('a token whose account is gone answers 401', async () => {
    const { token, accountId } = await login(api)
    withoutForeignKeys(`DELETE FROM advertisers WHERE account_id = ${accountId}; DELETE FROM accounts WHERE id = ${accountId}`)
    expectError(await list(token), 401, 'UnauthorizedError', 'the service not found')
  })

  test('answers 500 with the request id when the programs cannot be read', async () => {
    const broken = await startCliApi()
    const { token } = await login(broken)
    sqlOn(broken, 'ALTER TABLE programs RENAME TO programs_gone')
    expectCli500(await broken.call('GET', '/api/v1/cli/programs', { token }), 'Failed to list programs')
    await broken.stop()
  })
})
