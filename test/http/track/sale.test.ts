import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, minutes, type Api, type Fixture } from '../../helpers.ts'
import { trackingSetup, unique, type Kit } from './kit.ts'

let api: Api
let k: Kit
let f: Fixture
let customerKey: string
beforeAll(async () => {
  ;({ api, k, f } = await trackingSetup({}))
  customerKey = unique('cust')
  await k.customer(f, customerKey)
})
afterAll(() => api.stop())

const sales = () => k.count('SELECT count(*) AS n FROM sales')
const platform = (status: number, name: string, message: string, code: string, details = {}) => ({
  data: null,
  error: { status, name, message, details, code },
})
const iso = (ms: number) => new Date(ms).toISOString()

describe('POST /api/v1/track/sale authentication (docs/errors.md, 401 table) with error.code unauthorized', () => {
  const rows: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, 'Missing or malformed Authorization header. Expected: Bearer <token>'],
    [
      'a header not starting with Bearer',
      { authorization: `Token ${'x'}` },
      'Missing or malformed Authorization header. Expected: Bearer <token>',
    ],
    ['an empty token', { authorization: 'Bearer   ' }, 'Missing API token'],
    ['an unknown token', { authorization: 'Bearer svc_live_nope' }, 'Invalid API token'],
  ]
  for (const [why, headers, message] of rows) {
    test(`${why} answers 401 "${message}"`, async () => {
      const reply = await api.call('POST', '/api/v1/track/sale', { body: { transaction_id: 't', amount_cents: 1 }, headers })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(platform(401, 'UnauthorizedError', message, 'unauthorized'))
    })
  }
})

describe("sale validation answers 400 invalid_request in docs/errors.md's order and records nothing", () => {
  const now = Date.parse('2026-06-01T12:00:00Z')
  const rows: [string, Record<string, unknown>, string][] = [
    ['a missing transaction_id', { transaction_id: undefined, amount_cents: 0 }, 'transaction_id is required and must be a string'],
    ['a numeric transaction_id', { transaction_id: 42 }, 'transaction_id is required and must be a string'],
    ['an empty transaction_id', { transaction_id: '' }, 'transaction_id is required and must be a string'],
    ['a missing amount_cents', { amount_cents: undefined }, 'amount_cents is required and must be a positive integer'],
    ['a zero amount_cents', { amount_cents: 0 }, 'amount_cents is required and must be a positive integer'],
    ['a negative amount_cents', { amount_cents: -100 }, 'amount_cents is required and must be a positive integer'],
    ['a fractional amount_cents', { amount_cents: 10.5 }, 'amount_cents is required and must be a positive integer'],
    ['a string amount_cents', { amount_cents: '4900' }, 'amount_cents is required and must be a positive integer'],
    [
      'an occurred_at without offset',
      { occurred_at: '2026-05-31T10:00:00' },
      'occurred_at must be an ISO 8601 time within the last 30 days',
    ],
    [
      'an occurred_at that is no real date',
      { occurred_at: '2026-02-30T10:00:00Z' },
      'occurred_at must be an ISO 8601 time within the last 30 days',
    ],
    [
      'an occurred_at older than 30 days',
      { occurred_at: iso(now - days(30) - 1000) },
      'occurred_at must be an ISO 8601 time within the last 30 days',
    ],
    [
      'an occurred_at over 5 minutes ahead',
      { occurred_at: iso(now + minutes(5) + 1000) },
      'occurred_at must be an ISO 8601 time within the last 30 days',
    ],
    ['a numeric occurred_at', { occurred_at: 1717236000 }, 'occurred_at must be an ISO 8601 time within the last 30 days'],
    [
      'a provider outside the allowed set',
      { provider: 'venmo' },
      'provider must be one of: stripe, paddle, lemonsqueezy, paypal, braintree, chargebee, manual',
    ],
    ['an empty provider_payment_id', { provider_payment_id: '' }, 'provider_payment_id must be a string of 1 to 255 characters'],
    [
      'a 256-character provider_payment_id',
      { provider_payment_id: 'p'.repeat(256) },
      'provider_payment_id must be a string of 1 to 255 characters',
    ],
    [
      'a 256-emoji provider_payment_id',
      { provider_payment_id: '😀'.repeat(256) },
      'provider_payment_id must be a string of 1 to 255 characters',
    ],
    ['a string livemode', { livemode: 'yes' }, 'livemode must be a boolean'],
    [
      'a bad amount and a bad provider together: the amount first',
      { amount_cents: -1, provider: 'venmo' },
      'amount_cents is required and must be a positive integer',
    ],
  ]
  for (const [why, fields, message] of rows) {
    test(`${why} answers "${message}"`, async () => {
      const before = sales()
      const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, ...fields })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(platform(400, 'BadRequestError', message, 'invalid_request'))
      expect(sales()).toBe(before)
    })
  }

  test('occurred_at exactly 30 days old and 5 minutes ahead are accepted, with any offset', async () => {
    const fresh = await api.setupProgram({ commission_type: 'recurring_percent' })
    const key = unique('cust')
    await k.customer(fresh, key)
    for (const occurred_at of [iso(api.clock.now() - days(30)), iso(api.clock.now() + minutes(5)), '2026-06-01T19:00:00+07:00']) {
      const reply = await k.sale(fresh, { transaction_id: unique('txn'), customer_key: key, occurred_at })
      expect(reply.status).toBe(200)
    }
  })

  test('the bounds follow the server clock: a time accepted today is refused 31 days later', async () => {
    const occurred_at = iso(api.clock.now())
    api.clock.advance(days(31))
    try {
      const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, occurred_at })
      expect(reply.body.error.message).toBe('occurred_at must be an ISO 8601 time within the last 30 days')
    } finally {
      api.clock.advance(-days(31))
    }
  })
})

describe('currency (docs/errors.md 422; docs/decisions.md default USD)', () => {
  test('an unsupported currency answers 422 unsupported_currency, creates nothing, and the resend with a valid one works', async () => {
    const g = await api.setupProgram()
    const key = unique('cust')
    await k.customer(g, key)
    const txn = unique('txn')
    const before = sales()
    const reply = await k.sale(g, { transaction_id: txn, customer_key: key, currency: 'GBP' })
    expect(reply.status).toBe(422)
    expect(reply.body).toEqual(platform(422, 'UnprocessableEntityError', 'currency GBP is not supported', 'unsupported_currency'))
    expect(sales()).toBe(before)
    const resent = await k.sale(g, { transaction_id: txn, customer_key: key, currency: 'EUR' })
    expect(resent.status).toBe(200)
    expect(resent.body.data.currency).toBe('EUR')
  })

  test('a currency that is not a string answers 422 naming the value as sent, never read as text', async () => {
    const g = await api.setupProgram()
    const key = unique('cust')
    await k.customer(g, key)
    for (const [currency, shown] of [
      [['USD'], '["USD"]'],
      [{ a: 1 }, '{"a":1}'],
      [840, '840'],
    ] as const) {
      const reply = await k.sale(g, { transaction_id: unique('txn'), customer_key: key, currency })
      expect(reply.body).toEqual(platform(422, 'UnprocessableEntityError', `currency ${shown} is not supported`, 'unsupported_currency'))
    }
  })

  test('a transaction_id has no length limit of its own (the 64 KiB body bounds it)', async () => {
    const g = await api.setupProgram()
    const key = unique('cust')
    await k.customer(g, key)
    const txn = `${unique('txn')}-${'t'.repeat(400)}`
    expect((await k.sale(g, { transaction_id: txn, customer_key: key })).status).toBe(200)
    expect((await k.refund(g, { transaction_id: txn })).body.data.status).toBe('refunded')
  })

  test('provider_payment_id counts characters, not UTF-16 units: 255 emoji are accepted', async () => {
    const g = await api.setupProgram()
    const key = unique('cust')
    await k.customer(g, key)
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key, provider_payment_id: '😀'.repeat(255) })).status).toBe(200)
  })

  test('an omitted currency is USD; a lower-case code is not one of USD, EUR, VND and answers 422', async () => {
    const g = await api.setupProgram({ commission_type: 'recurring_percent' })
    const key = unique('cust')
    await k.customer(g, key)
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key })).body.data.currency).toBe('USD')
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key, currency: 'VND' })).body.data.currency).toBe('VND')
    const before = sales()
    for (const currency of ['usd', 'Eur', 'vnd']) {
      const reply = await k.sale(g, { transaction_id: unique('txn'), customer_key: key, currency })
      expect({ currency, status: reply.status, body: reply.body }).toEqual({
        currency,
        status: 422,
        body: platform(422, 'UnprocessableEntityError', `currency ${currency} is not supported`, 'unsupported_currency'),
      })
    }
    expect(sales()).toBe(before)
  })
})

describe('customer resolution errors carry error.code no_attribution and record nothing', () => {
  test('neither customer_key nor click_id, or identifiers matching nothing: "Customer not found. Provide customer_key or click_id."', async () => {
    const before = sales()
    for (const ids of [{}, { customer_key: unique('nobody') }, { click_id: 'clk_nothing' }]) {
      const reply = await k.sale(f, { transaction_id: unique('txn'), ...ids })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        platform(400, 'BadRequestError', 'Customer not found. Provide customer_key or click_id.', 'no_attribution'),
      )
    }
    expect(sales()).toBe(before)
  })

  test('a customer attributed to another program: "No affiliate attribution found for this customer in this program"', async () => {
    const other = await api.setupProgram()
    const clickId = await k.clickId(other)
    const reply = await k.sale(f, { transaction_id: unique('txn'), click_id: clickId })
    expect(reply.body).toEqual(
      platform(400, 'BadRequestError', 'No affiliate attribution found for this customer in this program', 'no_attribution'),
    )
  })

  test('a customer whose partner is not in the program: "No partner-program relationship found for this customer"', async () => {
    const other = await api.setupProgram()
    const key = unique('cust')
    const { customerId } = await k.customer(f, key)
    api.server.deps.database.client.exec(`UPDATE customers SET partner_id = ${other.partnerId} WHERE id = ${customerId}`)
    const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: key })
    expect(reply.body).toEqual(
      platform(400, 'BadRequestError', 'No partner-program relationship found for this customer', 'no_attribution'),
    )
  })

  test('a customer without partner: 400 "partnerId required to create commission", the sale is stored and a resend answers 409', async () => {
    const key = unique('cust')
    const { customerId } = await k.customer(f, key)
    api.server.deps.database.client.exec(`UPDATE customers SET partner_id = NULL WHERE id = ${customerId}`)
    const txn = unique('txn')
    const reply = await k.sale(f, { transaction_id: txn, customer_key: key })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(platform(400, 'BadRequestError', 'partnerId required to create commission', 'no_attribution'))
    const saleId = k.count('SELECT id AS n FROM sales WHERE transaction_id = ?', txn)
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE sale_id = ?', saleId)).toBe(0)
    const resent = await k.sale(f, { transaction_id: txn, customer_key: key })
    expect(resent.status).toBe(409)
    expect(resent.body.error.details).toEqual({ sale_id: saleId })
  })
})

describe('test mode', () => {
  test('a test sale may omit transaction_id: test_txn_<timestamp> is used, distinct within one millisecond', async () => {
    const g = await api.setupProgram({ commission_type: 'recurring_fixed', commission_rate: 1 })
    const key = unique('cust')
    await k.customer(g, key)
    const body = { transaction_id: undefined, customer_key: key, additional_data: { test_mode: true } }
    const first = await k.sale(g, body)
    const second = await k.sale(g, body)
    expect(first.body.data.transaction_id).toBe(`test_txn_${api.clock.now()}`)
    expect(second.body.data.transaction_id).toMatch(/^test_txn_\d+$/)
    expect(second.body.data.transaction_id).not.toBe(first.body.data.transaction_id)
    expect(k.count('SELECT count(*) AS n FROM sales WHERE program_id = ? AND test_mode = 1', g.programId)).toBe(2)
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE program_id = ? AND test_mode = 1', g.programId)).toBe(2)
  })
})
