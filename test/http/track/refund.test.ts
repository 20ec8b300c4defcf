import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, withOwnServer } from '../../helpers.ts'
import { kit, trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit, f: Fixture
beforeAll(async () => ({ api, k, f } = await trackingSetup({})))
afterAll(() => api.stop())

/** A recorded sale with its commission (10% of 4900). */
async function recordedSale(fixture = f) {
  const key = unique('cust')
  await k.customer(fixture, key)
  const txn = unique('txn')
  const reply = await k.sale(fixture, { transaction_id: txn, customer_key: key })
  return { txn, saleId: reply.body.data.sale_id as number }
}
const ledger = (saleId: number) =>
  api.server.deps.database.client.prepare('SELECT kind, amount_cents FROM commissions WHERE sale_id = ? ORDER BY id').all(saleId)
const error = (status: number, name: string, message: string, code: string) => ({
  data: null,
  error: { status, name, message, details: {}, code },
})

describe('POST /api/v1/track/refund authentication with error.code unauthorized', () => {
  const rows: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, 'Missing or malformed Authorization header. Expected: Bearer <token>'],
    ['an empty token (refund answers Invalid API token)', { authorization: 'Bearer ' }, 'Invalid API token'],
    ['an unknown token', { authorization: 'Bearer svc_live_nope' }, 'Invalid API token'],
  ]
  for (const [why, headers, message] of rows) {
    test(`${why} answers 401 "${message}"`, async () => {
      const reply = await api.call('POST', '/api/v1/track/refund', { body: { transaction_id: 't' }, headers })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(error(401, 'UnauthorizedError', message, 'unauthorized'))
    })
  }
})

describe('refund validation', () => {
  test('a missing transaction_id answers 400 "transaction_id is required" (invalid_request)', async () => {
    for (const body of [{}, { transaction_id: '' }, { transaction_id: 12 }]) {
      expect((await k.refund(f, body)).body).toEqual(error(400, 'BadRequestError', 'transaction_id is required', 'invalid_request'))
    }
  })

  test('a reason other than refund or chargeback answers 400 "reason must be refund or chargeback"', async () => {
    const { txn, saleId } = await recordedSale()
    const reply = await k.refund(f, { transaction_id: txn, reason: 'fraud' })
    expect(reply.body).toEqual(error(400, 'BadRequestError', 'reason must be refund or chargeback', 'invalid_request'))
    expect(ledger(saleId)).toHaveLength(1)
  })

  test('an unknown transaction_id answers 404 "Sale not found for transaction_id" (not_found)', async () => {
    expect((await k.refund(f, { transaction_id: unique('nope') })).body).toEqual(
      error(404, 'NotFoundError', 'Sale not found for transaction_id', 'not_found'),
    )
  })

  test("another program's sale is not found with this key", async () => {
    const other = await api.setupProgram()
    const { txn } = await recordedSale(other)
    expect((await k.refund(f, { transaction_id: txn })).status).toBe(404)
  })
})

describe('a refund of a recorded sale', () => {
  test('answers status refunded (reason defaults to refund) and reverses the commission with a negative entry', async () => {
    const { txn, saleId } = await recordedSale()
    const reply = await k.refund(f, { transaction_id: txn })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ data: { sale_id: saleId, transaction_id: txn, status: 'refunded' }, error: null })
    expect(ledger(saleId)).toEqual([
      { kind: 'commission', amount_cents: 490 },
      { kind: 'reversal', amount_cents: -490 },
    ])
  })

  test('a chargeback answers charged_back and keeps refund_reason', async () => {
    const { txn, saleId } = await recordedSale()
    const reply = await k.refund(f, { transaction_id: txn, reason: 'chargeback', refund_reason: 'card stolen' })
    expect(reply.body.data.status).toBe('charged_back')
    const shown = await api.admin('GET', `/sales/${saleId}`)
    expect(shown.body.data[0]).toMatchObject({ status: 'charged_back', refund: { reason: 'chargeback', refund_reason: 'card stolen' } })
  })

  test('a repeated refund answers 200 with the recorded refund and reverses nothing twice', async () => {
    const { txn, saleId } = await recordedSale()
    const first = await k.refund(f, { transaction_id: txn, reason: 'chargeback' })
    const again = await k.refund(f, { transaction_id: txn, reason: 'refund' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(ledger(saleId)).toHaveLength(2)
  })

  test('a sale without commission is refunded without a reversal', async () => {
    const g = await api.setupProgram({ commission_type: 'fixed', commission_rate: 5 })
    const key = unique('cust')
    await k.customer(g, key)
    await k.sale(g, { transaction_id: unique('txn'), customer_key: key })
    const txn = unique('txn')
    const second = await k.sale(g, { transaction_id: txn, customer_key: key })
    expect(second.body.data.commission).toBeNull()
    expect((await k.refund(g, { transaction_id: txn })).body.data.status).toBe('refunded')
    expect(ledger(second.body.data.sale_id)).toEqual([])
  })
})

test('a database failure answers 500 "Refund tracking failed" (internal_error)', async () => {
  await withOwnServer(async (broken) => {
    const g = await broken.setupProgram()
    const bk = kit(broken)
    await bk.customer(g, 'c1')
    await bk.sale(g, { transaction_id: 't1', customer_key: 'c1' })
    broken.server.deps.database.client.exec(
      "CREATE TRIGGER fail_refund BEFORE INSERT ON refunds BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    )
    const reply = await bk.refund(g, { transaction_id: 't1' })
    expect(reply.body).toEqual(error(500, 'InternalServerError', 'Refund tracking failed', 'internal_error'))
    expect(reply.headers.get('x-request-id')).toBeTruthy()
    expect(bk.count("SELECT count(*) AS n FROM commissions WHERE kind = 'reversal'")).toBe(0)
  })
})
