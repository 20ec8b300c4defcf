import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, type Api, type Fixture, withOwnServer } from '../../helpers.ts'
import { kit, trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit, f: Fixture
beforeAll(async () => ({ api, k, f } = await trackingSetup({ attribution_window_days: 45 })))
afterAll(() => api.stop())

const post = (body: unknown, headers?: Record<string, string>) => api.call('POST', '/api/v1/track/click', { body, headers })
const clicks = () => k.count('SELECT count(*) AS n FROM clicks')

describe('POST /api/v1/track/click answers every 400 of docs/errors.md and records nothing', () => {
  const rows: [string, unknown, string][] = [
    ['a missing affiliate_url', {}, 'affiliate_url is required'],
    ['an empty affiliate_url', { affiliate_url: '' }, 'affiliate_url is required'],
    ['an affiliate_url that is not a URL', { affiliate_url: 'not a url' }, 'Invalid affiliate_url'],
    ['an affiliate_url without scheme', { affiliate_url: 'shop.test/?aff=abc' }, 'Invalid affiliate_url'],
    ['an affiliate_url that is a number', { affiliate_url: 42 }, 'Invalid affiliate_url'],
    ['an affiliate_url without aff', { affiliate_url: 'https://shop.test/?ref=abc' }, 'No aff parameter found in affiliate_url'],
    ['an aff matching no link', { affiliate_url: 'https://shop.test/?aff=nobody-has-this' }, 'Referral link not found'],
  ]
  for (const [why, body, message] of rows) {
    test(`${why} answers 400 "${message}"`, async () => {
      const before = clicks()
      const reply = await post(body)
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } })
      expect(clicks()).toBe(before)
    })
  }

  test('a link that lacks its partner answers 400 "Invalid referral link configuration"', async () => {
    const g = await api.setupProgram()
    api.server.deps.database.client.exec(`UPDATE links SET partner_id = NULL WHERE id = ${g.linkId}`)
    const reply = await k.click(g)
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe('Invalid referral link configuration')
  })
})

describe('a click on an active link', () => {
  test('answers success, an unguessable click_id and the program window as cookie_window_days', async () => {
    const reply = await k.click(f)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ success: true, click_id: expect.any(String), cookie_window_days: 45 })
    // 24 base64url characters: the sealed row and 96 random bits (docs/decisions.md: at least 96; src/domain/click-id.ts).
    expect(reply.body.click_id).toMatch(/^clk_[A-Za-z0-9_-]{24}$/)
    expect(reply.headers.get('x-request-id')).toBeTruthy()
    expect(k.count('SELECT count(*) AS n FROM clicks WHERE click_id = ? AND partner_id = ?', reply.body.click_id, f.partnerId)).toBe(1)
  })

  test('two visitors get two different click ids', async () => {
    expect(await k.clickId(f)).not.toBe(await k.clickId(f))
  })

  test('an unknown click_id in the body is ignored and a new one is issued', async () => {
    const reply = await k.click(f, { click_id: 'clk_made_up_by_someone' })
    expect(reply.status).toBe(200)
    expect(reply.body.click_id).not.toBe('clk_made_up_by_someone')
  })

  test('a click_id issued by another program is not reused', async () => {
    const other = await api.setupProgram()
    const foreign = await k.clickId(other)
    expect((await k.click(f, { click_id: foreign })).body.click_id).not.toBe(foreign)
  })
})

describe('first click wins (docs/api.md rule 1)', () => {
  test("a second partner's click with the existing click_id is logged for that partner and answers the same click_id", async () => {
    const bob = await k.partnerLink(f, unique('bob'))
    const first = await k.clickId(f)
    const again = await k.click(bob, { click_id: first })
    expect(again.body).toEqual({ success: true, click_id: first, cookie_window_days: 45 })
    expect(k.count('SELECT count(*) AS n FROM clicks WHERE click_id = ?', first)).toBe(2)
    expect(k.count('SELECT count(*) AS n FROM clicks WHERE click_id = ? AND partner_id = ?', first, bob.partnerId)).toBe(1)
  })

  test('the customer and the commission stay with the first partner', async () => {
    const bob = await k.partnerLink(f, unique('bob'))
    const first = await k.clickId(f)
    await k.click(bob, { click_id: first })
    const customerKey = unique('cust')
    expect((await k.lead(f, { click_id: first, customer_key: customerKey })).status).toBe(200)
    const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey })
    expect(sale.body.data.commission.partner_id).toBe(f.partnerId)
  })
})

describe('referral link turned off (docs/api.md, Customer states)', () => {
  test('answers 410 link_disabled in the typed envelope with success false and message, recording nothing; on again it works', async () => {
    const g = await api.setupProgram()
    await api.admin('PATCH', `/links/${g.linkId}`, { active: false })
    const before = clicks()
    const reply = await k.click(g)
    expect(reply.status).toBe(410)
    expect(reply.body).toEqual({
      success: false,
      message: 'This referral link is disabled.',
      error: { code: 'link_disabled', message: 'This referral link is disabled.', hint: expect.any(String) },
    })
    expect(reply.body.data).toBeUndefined()
    expect(clicks()).toBe(before)
    await api.admin('PATCH', `/links/${g.linkId}`, { active: true })
    expect((await k.click(g)).status).toBe(200)
  })
})

describe('browser origins', () => {
  test('a click from an origin the program does not allow answers 403 and records nothing', async () => {
    const before = clicks()
    const reply = await k.click(f, {}, { origin: 'https://evil.example' })
    expect(reply.status).toBe(403)
    expect(reply.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Origin not allowed for this program', details: {} })
    // Readable by the page that sent it, so the tracker can log the message instead of a network error.
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://evil.example')
    expect(clicks()).toBe(before)
  })

  test('a click from the program domain or its https subdomains is accepted', async () => {
    for (const origin of ['https://shop.test', 'https://www.shop.test']) {
      expect((await k.click(f, {}, { origin })).status).toBe(200)
    }
  })

  test('an origin added to or removed from allowed_origins is answered anew on the next click', async () => {
    const g = await api.setupProgram({ domain: 'origins-shop.test' })
    const origin = 'http://localhost:5173'
    expect((await k.click(g, {}, { origin })).status).toBe(403)
    expect((await api.admin('PATCH', `/programs/${g.programId}`, { allowed_origins: [origin] })).status).toBe(200)
    expect((await k.click(g, {}, { origin })).status).toBe(200)
    expect((await api.admin('PATCH', `/programs/${g.programId}`, { allowed_origins: [] })).status).toBe(200)
    expect((await k.click(g, {}, { origin })).status).toBe(403)
  })

  test('past 64 origins of one program, each is still answered by its own rule', async () => {
    for (let i = 0; i < 70; i++) expect((await k.click(f, {}, { origin: `https://evil${i}.example` })).status).toBe(403)
    expect((await k.click(f, {}, { origin: 'https://shop.test' })).status).toBe(200)
  })
})

describe('test mode', () => {
  test('additional_data.test_mode marks the click as test data', async () => {
    const reply = await k.click(f, { additional_data: { test_mode: true } })
    expect(k.count('SELECT test_mode AS n FROM clicks WHERE click_id = ?', reply.body.click_id)).toBe(1)
  })

  test('a Bearer key with another program_id answers 403 "program_id does not match the API key"', async () => {
    const before = clicks()
    const reply = await k.click(
      f,
      { additional_data: { test_mode: true, program_id: f.programId + 1000 } },
      { authorization: `Bearer ${f.apiKey}` },
    )
    expect(reply.status).toBe(403)
    expect(reply.body.error.message).toBe('program_id does not match the API key')
    expect(clicks()).toBe(before)
  })

  test("the key's own program_id is accepted, and without a key program_id is not checked", async () => {
    expect(
      (await k.click(f, { additional_data: { test_mode: true, program_id: f.programId } }, { authorization: `Bearer ${f.apiKey}` })).status,
    ).toBe(200)
    expect((await k.click(f, { additional_data: { test_mode: true, program_id: 999_999 } })).status).toBe(200)
  })

  test('an unknown Bearer token is ignored on click, in test mode with a program_id too: browser mode, not checked', async () => {
    for (const extra of [{}, { additional_data: { test_mode: true, program_id: f.programId + 1000 } }]) {
      const reply = await k.click(f, extra, { authorization: 'Bearer junk-token-nobody-issued' })
      expect({ extra, status: reply.status, success: reply.body.success }).toEqual({ extra, status: 200, success: true })
    }
  })

  test('additional_data that is not an object answers 400', async () => {
    const reply = await k.click(f, { additional_data: 'test' })
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toContain('additional_data')
  })
})

test('the 61st click from one IP within a minute answers 429 rate_limited and is not recorded', async () => {
  await withOwnServer(async (limited) => {
    const g = await limited.setupProgram()
    const lk = kit(limited)
    for (let i = 0; i < 60; i++) expect((await lk.click(g)).status).toBe(200)
    const reply = await lk.click(g)
    expect(reply.status).toBe(429)
    expect(reply.body.error).toMatchObject({ code: 'rate_limited', status: 429 })
    expect(lk.count('SELECT count(*) AS n FROM clicks')).toBe(60)
  })
})

test('a database failure answers 500 "Click tracking failed" with the request id in the header only', async () => {
  await withOwnServer(async (broken) => {
    const g = await broken.setupProgram()
    broken.server.deps.database.client.exec(
      "CREATE TRIGGER fail_click BEFORE INSERT ON clicks BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    )
    const reply = await kit(broken).click(g)
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({
      data: null,
      error: { status: 500, name: 'InternalServerError', message: 'Click tracking failed', details: {} },
    })
    expect(reply.headers.get('x-request-id')).toBe(broken.errors[0].request_id as string)
  })
})

describe('a program key sent with a click (docs/api.md, Authentication: key rotation applies to every request with it)', () => {
  test('a key due for rotation still clicks, with Deprecation, Sunset, Link and top-level warnings; once retired it is refused', async () => {
    await withOwnServer(async (own) => {
      const g = await own.setupProgram()
      const rotateBy = new Date(own.clock.now() + days(7)).toISOString()
      await own.admin('POST', `/programs/${g.programId}/api-key/rotation`, { rotate_by: rotateBy })
      const body = { affiliate_url: `https://shop.test/?aff=${g.shortLink}` }
      const before = await own.call('POST', '/api/v1/track/click', { body, token: g.apiKey })
      expect(before.status).toBe(200)
      expect(before.body).toEqual({
        success: true,
        click_id: expect.any(String),
        cookie_window_days: expect.any(Number),
        warnings: [expect.objectContaining({ code: 'api_key_rotation_required', rotate_by: rotateBy })],
      })
      expect(before.headers.get('sunset')).toBe(new Date(rotateBy).toUTCString())
      expect(before.headers.get('deprecation')).toMatch(/^@\d+$/)
      expect(before.headers.get('link')).toContain('#api_key_rotation_required>; rel="deprecation"')
      own.clock.advance(days(7))
      const after = await own.call('POST', '/api/v1/track/click', { body, token: g.apiKey })
      expect(after.status).toBe(401)
      expect(after.body.error).toMatchObject({
        code: 'api_key_rotation_required',
        hint: expect.any(String),
        docs_url: expect.stringContaining('#api_key_rotation_required'),
      })
      expect(kit(own).count('SELECT count(*) AS n FROM clicks')).toBe(1)
    })
  })

  test('an unknown key is ignored outside the test-mode check', async () => {
    const reply = await api.call('POST', '/api/v1/track/click', {
      body: { affiliate_url: `https://shop.test/?aff=${f.shortLink}` },
      token: 'sk_nobody_knows_this',
    })
    expect(reply.status).toBe(200)
  })
})
