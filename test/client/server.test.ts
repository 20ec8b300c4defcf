// The server client against a local stub: request mapping, result shapes, retries.
import { afterEach, describe, expect, test } from 'bun:test'
import { Svc } from '../../src/client/server.ts'
import { platformError, startStub } from './stub.ts'

let stub: ReturnType<typeof startStub>
afterEach(() => stub?.stop())
const client = (extra: Partial<ConstructorParameters<typeof Svc>[0]> = {}) =>
  new Svc({ apiKey: 'sk_test', baseUrl: stub.url + '/', ...extra })

describe('request mapping', () => {
  test('trackLead posts customer_key, click_id, email and additional_data with the Bearer key', async () => {
    stub = startStub([{ status: 200, body: { data: { customer_id: 7, status: 'lead' }, error: null } }])
    const result = await client().trackLead({
      customerExternalId: 'cust-1',
      clickId: 'clk',
      email: 'a@b.test',
      additionalData: { test_mode: true },
    })
    expect(result).toEqual({ ok: true, status: 200, data: { customer_id: 7, status: 'lead' } })
    expect(stub.seen[0]).toMatchObject({
      path: '/api/v1/track/lead',
      authorization: 'Bearer sk_test',
      body: { customer_key: 'cust-1', click_id: 'clk', email: 'a@b.test', additional_data: { test_mode: true } },
    })
  })

  test('a null clickId is left out of the lead body', async () => {
    stub = startStub([{ status: 200, body: { data: {}, error: null } }])
    await client().trackLead({ customerExternalId: 'cust-1', clickId: null })
    expect(stub.seen[0]!.body).toEqual({ customer_key: 'cust-1' })
  })

  test('trackSale sends amount_cents and the invoiceId as transaction_id; trackRefund the same id', async () => {
    stub = startStub([{ status: 200, body: { data: { sale_id: 1 }, error: null } }])
    await client().trackSale({ customerExternalId: 'cust-1', amount: 4900, invoiceId: 'inv_1' })
    await client().trackRefund({ invoiceId: 'inv_1' })
    expect(stub.seen.map((s) => [s.path, s.body])).toEqual([
      ['/api/v1/track/sale', { customer_key: 'cust-1', amount_cents: 4900, transaction_id: 'inv_1' }],
      ['/api/v1/track/refund', { transaction_id: 'inv_1' }],
    ])
  })
})

test('trackSale sends currency, occurred_at (a Date as ISO 8601), provider, provider_payment_id, livemode, click_id and coupon_code', async () => {
  stub = startStub([{ status: 200, body: { data: { sale_id: 1 }, error: null } }])
  await client().trackSale({
    customerExternalId: 'cust-1',
    amount: 4900,
    invoiceId: 'inv_2',
    currency: 'EUR',
    occurredAt: new Date('2026-06-01T10:00:00Z'),
    provider: 'paddle',
    providerPaymentId: 'pay_1',
    livemode: false,
    clickId: 'clk_1',
    couponCode: 'PODCAST20',
  })
  expect(stub.seen[0]!.body).toEqual({
    customer_key: 'cust-1',
    amount_cents: 4900,
    transaction_id: 'inv_2',
    currency: 'EUR',
    occurred_at: '2026-06-01T10:00:00.000Z',
    provider: 'paddle',
    provider_payment_id: 'pay_1',
    livemode: false,
    click_id: 'clk_1',
    coupon_code: 'PODCAST20',
  })
})

describe('results', () => {
  test("an HTTP error resolves ok: false with the status and the envelope's error", async () => {
    const body = platformError(400, 'BadRequestError', 'Customer not found. Provide customer_key or click_id.', { code: 'invalid_request' })
    stub = startStub([{ status: 400, body }])
    const result = await client().trackSale({ customerExternalId: 'x', amount: 1, invoiceId: 'inv' })
    expect(result).toEqual({ ok: false, status: 400, error: body.error })
  })

  test('a 409 from trackSale is ok: the sale was already recorded', async () => {
    const body = platformError(409, 'ConflictError', 'Duplicate transaction_id. This sale has already been recorded.', {
      code: 'duplicate_transaction',
    })
    body.error.details = { sale_id: 41 }
    stub = startStub([{ status: 409, body }])
    const result = await client().trackSale({ customerExternalId: 'x', amount: 1, invoiceId: 'inv_dup' })
    expect(result).toEqual({ ok: true, status: 409, data: { duplicate: true, sale_id: 41, transaction_id: 'inv_dup' } })
  })

  test('key-rotation warnings are passed through', async () => {
    const warnings = [{ code: 'api_key_rotation_required', message: 'm', hint: 'h', rotate_by: '2026-07-01T00:00:00Z', docs_url: 'd' }]
    stub = startStub([{ status: 200, body: { data: { sale_id: 2 }, error: null, warnings } }])
    const result = await client().trackRefund({ invoiceId: 'inv' })
    expect(result.warnings).toEqual(warnings)
  })

  test('an unreachable service resolves ok: false with status 0 after the retries', async () => {
    const svc = new Svc({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', retries: 1 })
    const result = await svc.trackLead({ customerExternalId: 'c', clickId: null })
    expect(result).toMatchObject({ ok: false, status: 0 })
    expect(result.ok || result.error.message).toStartWith('Network error')
  })

  test('missing apiKey or baseUrl is a programming error and throws', () => {
    expect(() => new Svc({ apiKey: '', baseUrl: 'http://x' })).toThrow('apiKey is required')
  })
})

describe('retries', () => {
  test('a 429 is retried after Retry-After seconds, keeping the invoiceId', async () => {
    stub = startStub([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { status: 429, code: 'rate_limited', message: 'Too many requests', retry_after_seconds: 1 } },
      },
      { status: 200, body: { data: { sale_id: 1 }, error: null } },
    ])
    const result = await client().trackSale({ customerExternalId: 'c', amount: 100, invoiceId: 'inv_r' })
    expect(result.ok).toBe(true)
    expect(stub.seen.map((s) => s.body.transaction_id)).toEqual(['inv_r', 'inv_r'])
    expect(stub.seen[1]!.at - stub.seen[0]!.at).toBeGreaterThanOrEqual(950)
  })

  test('5xx answers are retried with growing backoff, then the last failure is returned', async () => {
    stub = startStub([{ status: 500, body: platformError(500, 'InternalServerError', 'Sale tracking failed') }])
    const result = await client({ retries: 2 }).trackSale({ customerExternalId: 'c', amount: 100, invoiceId: 'inv_5' })
    expect(result).toMatchObject({ ok: false, status: 500, error: { message: 'Sale tracking failed' } })
    expect(stub.seen).toHaveLength(3)
    // Backoff 300 ms then 600 ms, each jittered into its upper half.
    expect(stub.seen[1]!.at - stub.seen[0]!.at).toBeGreaterThanOrEqual(140)
    expect(stub.seen[2]!.at - stub.seen[1]!.at).toBeGreaterThanOrEqual(290)
  })

  test('a Retry-After longer than maxDelayMs is not waited for', async () => {
    stub = startStub([{ status: 429, headers: { 'retry-after': '120' }, body: { error: { code: 'rate_limited', message: 'slow down' } } }])
    const started = performance.now()
    const result = await client().trackLead({ customerExternalId: 'c', clickId: null })
    expect(result).toMatchObject({ ok: false, status: 429, error: { code: 'rate_limited' } })
    expect(stub.seen).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  test("a 500 'Failed to create commission' is not retried: the sale is stored already", async () => {
    stub = startStub([{ status: 500, body: platformError(500, 'InternalServerError', 'Failed to create commission') }])
    const result = await client().trackSale({ customerExternalId: 'c', amount: 100, invoiceId: 'inv_c' })
    expect(result).toMatchObject({ ok: false, status: 500, error: { message: 'Failed to create commission' } })
    expect(stub.seen).toHaveLength(1)
  })

  test('4xx other than 429 is never retried', async () => {
    stub = startStub([{ status: 401, body: platformError(401, 'UnauthorizedError', 'Invalid API token') }])
    await client().trackRefund({ invoiceId: 'inv' })
    expect(stub.seen).toHaveLength(1)
  })
})
