import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, startApi, type Api } from '../../helpers.ts'

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

const programFields = { name: 'Shop', domain: 'shop.test', commission_type: 'percent', commission_rate: 10 }

describe('the operator API gate', () => {
  test('a wrong or missing admin token answers 401 in the platform envelope', async () => {
    for (const token of [undefined, 'wrong-token']) {
      const reply = await api.call('GET', '/api/v1/admin/programs', { token })
      expect(reply.status).toBe(401)
      expect(reply.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } })
    }
  })

  test('without SVC_ADMIN_TOKEN the operator API does not exist (404)', async () => {
    const bare = await startApi({ env: { SVC_ADMIN_TOKEN: '' } })
    const reply = await bare.call('POST', '/api/v1/admin/accounts', { body: { email: 'a@b.test' }, token: ADMIN_TOKEN })
    expect(reply.status).toBe(404)
    await bare.stop()
  })
})

describe('accounts', () => {
  test('creating an account also creates its advertiser; one email may own several accounts', async () => {
    const reply = await api.admin('POST', '/accounts', { email: 'Owner@Example.test', name: 'Owner' })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({ data: { account_id: expect.any(Number), advertiser_id: expect.any(Number) }, error: null })
    const again = await api.admin('POST', '/accounts', { email: 'owner@example.test' })
    expect(again.status).toBe(201)
    expect(again.body.data.account_id).not.toBe(reply.body.data.account_id)
    expect((await api.admin('POST', '/accounts', { email: 'not-an-email' })).body.error.message).toBe('email must be an email address')
  })

  test('suspend and unsuspend answer the new state; an unknown account is 404', async () => {
    const { body } = await api.admin('POST', '/accounts', { email: 'suspend@example.test' })
    const id = body.data.account_id
    expect((await api.admin('POST', `/accounts/${id}/suspend`)).body.data).toEqual({ account_id: id, suspended: true })
    expect((await api.admin('POST', `/accounts/${id}/unsuspend`)).body.data).toEqual({ account_id: id, suspended: false })
    expect((await api.admin('POST', '/accounts/99999/suspend')).status).toBe(404)
  })

  test('id-token issues a signed token valid for 10 minutes', async () => {
    const { body } = await api.admin('POST', '/accounts', { email: 'idt@example.test' })
    const reply = await api.admin('POST', `/accounts/${body.data.account_id}/id-token`)
    expect(reply.body.data.id_token.split('.')).toHaveLength(3)
    expect(Date.parse(reply.body.data.expires_at) - api.clock.now()).toBe(600_000)
  })
})

describe('programs', () => {
  test('creating a program answers its id and an API key of at least 128 bits, shown once', async () => {
    const { body } = await api.admin('POST', '/accounts', { email: 'p1@example.test' })
    const reply = await api.admin('POST', '/programs', { account_id: body.data.account_id, ...programFields })
    expect(reply.status).toBe(201)
    const key: string = reply.body.data.api_key
    expect(Buffer.from(key.replace(/^svc_live_/, ''), 'base64url').length).toBeGreaterThanOrEqual(16)
    const shown = await api.admin('GET', `/programs/${reply.body.data.program_id}`)
    // A list of one, like every read route of docs/decisions.md.
    expect(shown.body.data).toHaveLength(1)
    expect(shown.body.data[0]).toMatchObject({
      program_id: reply.body.data.program_id,
      name: 'Shop',
      domain: 'shop.test',
      commission_type: 'percent',
      commission_rate: 10,
      lead_auth: 'server_required',
      attribution_window_days: 60,
      allowed_origins: [],
    })
    expect(shown.body.data[0].api_key).not.toContain(key.slice(13))
    expect(shown.body.data[0].api_key).toStartWith(key.slice(0, 13))
  })

  test.each([
    [{ name: '' }, 'name must be a non-empty string'],
    [{ commission_type: 'bogus' }, 'commission_type must be one of: percent, fixed, recurring_percent, recurring_fixed'],
    [{ commission_rate: 0 }, 'commission_rate must be a positive number'],
    [{ commission_rate: '10' }, 'commission_rate must be a positive number'],
    [{ lead_auth: 'anyone' }, 'lead_auth must be server_required or browser_allowed'],
    [{ attribution_window_days: 1.5 }, 'attribution_window_days must be a whole number from 1 to 3650'],
    [{ allowed_origins: ['https://shop.test/path'] }, 'allowed_origins must be an array of origins such as https://shop.example'],
    [{ domain: 'not a domain' }, 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901'],
    [{ account_id: 99999 }, 'account_id must be the id of an existing account'],
  ])('a program with %j answers 400 "%s"', async (patch, message) => {
    const { body } = await api.admin('POST', '/accounts', { email: `v${Math.random()}@example.test` })
    const reply = await api.admin('POST', '/programs', { account_id: body.data.account_id, ...programFields, ...patch })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toEqual({ status: 400, name: 'BadRequestError', message, details: {} })
  })

  test('PATCH changes fields, keeps the webhook secret write-only and the key masked', async () => {
    const fixture = await api.setupProgram()
    const reply = await api.admin('PATCH', `/programs/${fixture.programId}`, {
      lead_auth: 'browser_allowed',
      allowed_origins: ['http://localhost:3000'],
      stripe_webhook_secret: 'whsec_abc',
      stripe_account_id: 'acct_123',
    })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({
      lead_auth: 'browser_allowed',
      allowed_origins: ['http://localhost:3000'],
      stripe_account_id: 'acct_123',
    })
    expect(JSON.stringify(reply.body)).not.toContain('whsec_abc')
    expect(JSON.stringify(reply.body)).not.toContain(fixture.apiKey)
    const other = await api.setupProgram()
    expect((await api.admin('PATCH', `/programs/${other.programId}`, { stripe_account_id: 'acct_123' })).status).toBe(409)
  })

  test('regenerating the key answers a new key and retires the old one at once', async () => {
    const fixture = await api.setupProgram()
    const reply = await api.admin('POST', `/programs/${fixture.programId}/api-key`)
    expect(reply.body.data.api_key).not.toBe(fixture.apiKey)
    const readiness = (key: string) => api.call('GET', '/api/v1/programs/me/readiness', { token: key })
    expect((await readiness(fixture.apiKey)).status).toBe(401)
    const fresh = await readiness(reply.body.data.api_key)
    expect({ status: fresh.status, program_id: fresh.body.data.program_id }).toEqual({ status: 200, program_id: fixture.programId })
  })

  test('rotation needs an ISO 8601 rotate_by and shows on the program', async () => {
    const fixture = await api.setupProgram()
    for (const rotate_by of ['soon', '01/02/2030', '']) {
      const refused = await api.admin('POST', `/programs/${fixture.programId}/api-key/rotation`, { rotate_by })
      expect({ rotate_by, status: refused.status, message: refused.body.error.message }).toEqual({
        rotate_by,
        status: 400,
        message: 'rotate_by must be an ISO 8601 date or time',
      })
    }
    const rotateBy = new Date(api.clock.now() + 86_400_000).toISOString()
    const reply = await api.admin('POST', `/programs/${fixture.programId}/api-key/rotation`, { rotate_by: rotateBy })
    expect(reply.body.data.rotate_by).toBe(rotateBy)
    expect((await api.admin('GET', `/programs/${fixture.programId}`)).body.data[0].api_key_rotation.rotate_by).toBe(rotateBy)
  })

  test('a rotate_by already past retires the key at once; a date alone is midnight UTC', async () => {
    const fixture = await api.setupProgram()
    const marked = await api.admin('POST', `/programs/${fixture.programId}/api-key/rotation`, { rotate_by: '2020-01-01' })
    expect(marked.body.data.rotate_by).toBe('2020-01-01T00:00:00.000Z')
    const retired = await api.call('GET', '/api/v1/programs/me/readiness', { token: fixture.apiKey })
    expect(retired.status).toBe(401)
    expect(retired.body.error.code).toBe('api_key_rotation_required')
  })
})

describe('partners and links', () => {
  test('a link needs a partner of the same program and a globally unique short_link', async () => {
    const a = await api.setupProgram()
    const b = await api.setupProgram()
    const foreign = await api.admin('POST', `/programs/${a.programId}/links`, { partner_id: b.partnerId, short_link: 'fresh-one' })
    expect(foreign.body.error.message).toBe('partner_id must be the id of a partner of this program')
    const taken = await api.admin('POST', `/programs/${b.programId}/links`, { partner_id: b.partnerId, short_link: a.shortLink })
    expect(taken.status).toBe(409)
    expect(taken.body.error.name).toBe('ConflictError')
  })

  test('PATCH /links/:id turns a link off and on', async () => {
    const fixture = await api.setupProgram()
    expect((await api.admin('PATCH', `/links/${fixture.linkId}`, { active: false })).body.data).toEqual({
      link_id: fixture.linkId,
      active: false,
    })
    expect((await api.admin('PATCH', `/links/${fixture.linkId}`, { active: 'no' })).body.error.message).toBe('active must be a boolean')
    expect((await api.admin('PATCH', '/links/99999', { active: true })).status).toBe(404)
  })
})

describe('read routes', () => {
  test('lists are newest first and paginate with limit and cursor', async () => {
    const fixture = await api.setupProgram()
    for (const name of ['b', 'c']) await api.admin('POST', `/programs/${fixture.programId}/partners`, { name })
    const first = await api.admin('GET', `/programs/${fixture.programId}/partners?limit=2`)
    expect(first.body.data.map((p: { name: string }) => p.name)).toEqual(['c', 'b'])
    const second = await api.admin('GET', `/programs/${fixture.programId}/partners?limit=2&cursor=${first.body.next_cursor}`)
    expect(second.body.data).toHaveLength(1)
    expect(second.body.next_cursor).toBeNull()
    expect((await api.admin('GET', `/programs/${fixture.programId}/partners?limit=500`)).status).toBe(400)
    for (const list of ['links', 'customers', 'sales', 'commissions', 'events']) {
      expect((await api.admin('GET', `/programs/${fixture.programId}/${list}`)).status).toBe(200)
    }
    expect((await api.admin('GET', '/programs/99999/sales')).status).toBe(404)
  })
})

test('ids and whole numbers are JSON numbers, never numeric strings', async () => {
  const fixture = await api.setupProgram()
  const reply = await api.admin('POST', `/programs/${fixture.programId}/links`, {
    partner_id: String(fixture.partnerId),
    short_link: 'stringly',
  })
  expect(reply.body.error.message).toBe('partner_id must be the id of a partner of this program')
  const window = await api.admin('PATCH', `/programs/${fixture.programId}`, { attribution_window_days: '30' })
  expect(window.body.error.message).toBe('attribution_window_days must be a whole number from 1 to 3650')
})

describe('operator changes take effect on the next request', () => {
  test('a key used a moment ago answers 401 right after regeneration', async () => {
    const fixture = await api.setupProgram()
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: fixture.apiKey })).status).toBe(200)
    await api.admin('POST', `/programs/${fixture.programId}/api-key`)
    const reply = await api.call('GET', '/api/v1/programs/me/readiness', { token: fixture.apiKey })
    expect(reply.status).toBe(401)
    expect(reply.body.error.message).toBe('Invalid API token.')
  })

  test('a link clicked a moment ago answers 410 right after it is turned off, and clicks again once on', async () => {
    const fixture = await api.setupProgram()
    const click = () => api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${fixture.shortLink}` } })
    expect((await click()).status).toBe(200)
    await api.admin('PATCH', `/links/${fixture.linkId}`, { active: false })
    expect((await click()).status).toBe(410)
    await api.admin('PATCH', `/links/${fixture.linkId}`, { active: true })
    expect((await click()).status).toBe(200)
  })

  test('a changed attribution window is the next click answer', async () => {
    const fixture = await api.setupProgram()
    const click = () => api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${fixture.shortLink}` } })
    expect((await click()).body.cookie_window_days).toBe(60)
    await api.admin('PATCH', `/programs/${fixture.programId}`, { attribution_window_days: 14 })
    expect((await click()).body.cookie_window_days).toBe(14)
  })
})
