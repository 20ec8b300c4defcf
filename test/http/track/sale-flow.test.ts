import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { days, type Api, withOwnServer } from '../../helpers.ts'
import { kit, trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

describe('a valid attributed sale', () => {
  test('answers the docs/decisions.md body with the commission of its partner', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    const key = unique('cust')
    await k.customer(f, key)
    const txn = unique('txn')
    const reply = await k.sale(f, {
      transaction_id: txn,
      customer_key: key,
      amount_cents: 4900,
      provider: 'stripe',
      provider_payment_id: 'pi_1',
      livemode: true,
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      data: {
        sale_id: expect.any(Number),
        transaction_id: txn,
        amount_cents: 4900,
        currency: 'USD',
        commission: { commission_id: expect.any(Number), partner_id: f.partnerId, amount_cents: 490 },
      },
      error: null,
    })
  })

  test('the operator API shows the sale with its attribution record: click, partner, link and rule', async () => {
    const f = await api.setupProgram()
    const key = unique('cust')
    const { clickId } = await k.customer(f, key)
    const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: key })
    const shown = await api.admin('GET', `/sales/${sale.body.data.sale_id}`)
    expect(shown.status).toBe(200)
    expect(shown.body.data).toHaveLength(1)
    expect(shown.body.next_cursor).toBeNull()
    expect(shown.body.data[0]).toMatchObject({
      sale_id: sale.body.data.sale_id,
      status: 'recorded',
      livemode: null,
      attribution: {
        rule: 'first_click',
        resolved_by: 'customer_key',
        click_id: clickId,
        partner_id: f.partnerId,
        link_id: f.linkId,
        window_days: 60,
      },
      commissions: [{ kind: 'commission', amount_cents: 490, partner_id: f.partnerId }],
      refund: null,
    })
    expect((await api.admin('GET', '/sales/999999')).status).toBe(404)
  })

  test('a sale by click_id with no customer yet creates the customer, converted, keeping its customer_key', async () => {
    const f = await api.setupProgram()
    const clickId = await k.clickId(f)
    const key = unique('cust')
    const reply = await k.sale(f, { transaction_id: unique('txn'), click_id: clickId, customer_key: key })
    expect(reply.body.data.commission.partner_id).toBe(f.partnerId)
    expect((await k.lead(f, { customer_key: key })).body.error.message).toBe(
      'Customer status cannot be updated to lead. Current status: converted',
    )
  })
})

describe('duplicates (docs/api.md: transaction_id unique globally)', () => {
  test('a repeated transaction_id answers 409 duplicate_transaction with the first sale_id, and nothing changes', async () => {
    const f = await api.setupProgram()
    const key = unique('cust')
    await k.customer(f, key)
    const txn = unique('txn')
    const first = await k.sale(f, { transaction_id: txn, customer_key: key })
    const again = await k.sale(f, { transaction_id: txn, customer_key: key, amount_cents: 1 })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      data: null,
      error: {
        status: 409,
        name: 'ConflictError',
        message: 'Duplicate transaction_id. This sale has already been recorded.',
        details: { sale_id: first.body.data.sale_id },
        code: 'duplicate_transaction',
      },
    })
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE program_id = ?', f.programId)).toBe(1)
  })

  test("the duplicate check is global: another program's transaction_id answers 409, without naming that program's sale", async () => {
    const a = await api.setupProgram()
    const b = await api.setupProgram()
    const [ka, kb] = [unique('cust'), unique('cust')]
    await k.customer(a, ka)
    await k.customer(b, kb)
    const txn = unique('txn')
    const first = await k.sale(a, { transaction_id: txn, customer_key: ka })
    const other = await k.sale(b, { transaction_id: txn, customer_key: kb })
    expect(other.status).toBe(409)
    expect(other.body.error.code).toBe('duplicate_transaction')
    // docs/decisions.md, Hostile input: details.sale_id only when the sale is the caller's own.
    expect(other.body.error.details).toEqual({})
    const again = await k.sale(a, { transaction_id: txn, customer_key: ka })
    expect(again.body.error.details.sale_id).toBe(first.body.data.sale_id)
  })

  test('concurrent requests with one transaction_id record one sale: one 200, the others 409 with its sale_id', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_percent' })
    const key = unique('cust')
    await k.customer(f, key)
    const txn = unique('txn')
    const replies = await Promise.all(Array.from({ length: 12 }, () => k.sale(f, { transaction_id: txn, customer_key: key })))
    const ok = replies.filter((r) => r.status === 200)
    expect(ok.length).toBe(1)
    for (const r of replies.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409)
      expect(r.body.error.details.sale_id).toBe(ok[0].body.data.sale_id)
    }
    expect(k.count('SELECT count(*) AS n FROM sales WHERE transaction_id = ?', txn)).toBe(1)
  })
})

describe('attribution window (docs/api.md rule 4) on the injected clock', () => {
  test('a signup within the window is attributed however late the payment comes', async () => {
    const f = await api.setupProgram({ attribution_window_days: 30, commission_type: 'recurring_percent' })
    const clickId = await k.clickId(f)
    api.clock.advance(days(30))
    const key = unique('cust')
    await k.lead(f, { click_id: clickId, customer_key: key })
    api.clock.advance(days(200))
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key })).status).toBe(200)
  })

  test('a signup past the window: the sale answers 400 no_attribution, records nothing, and the next payment is checked again', async () => {
    const f = await api.setupProgram({ attribution_window_days: 30 })
    const clickId = await k.clickId(f)
    api.clock.advance(days(31))
    const key = unique('cust')
    await k.lead(f, { click_id: clickId, customer_key: key })
    for (let i = 0; i < 2; i++) {
      const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: key })
      expect(reply.status).toBe(400)
      expect(reply.body.error).toMatchObject({
        message: 'No affiliate attribution found for this customer in this program',
        code: 'no_attribution',
      })
    }
    expect(k.count('SELECT count(*) AS n FROM sales WHERE program_id = ?', f.programId)).toBe(0)
  })

  test('without a signup the payment is measured: in at 30 days, out at 31', async () => {
    const f = await api.setupProgram({ attribution_window_days: 30 })
    const late = await k.clickId(f)
    const inTime = await k.clickId(f)
    api.clock.advance(days(30))
    expect((await k.sale(f, { transaction_id: unique('txn'), click_id: inTime })).status).toBe(200)
    api.clock.advance(days(1))
    expect((await k.sale(f, { transaction_id: unique('txn'), click_id: late })).body.error.message).toBe(
      'No affiliate attribution found for this customer in this program',
    )
  })

  test('once a conversion is recorded, later payments are not re-checked', async () => {
    const f = await api.setupProgram({ attribution_window_days: 30, commission_type: 'recurring_fixed', commission_rate: 5 })
    const clickId = await k.clickId(f)
    api.clock.advance(days(29))
    expect((await k.sale(f, { transaction_id: unique('txn'), click_id: clickId })).status).toBe(200)
    api.clock.advance(days(365))
    const renewal = await k.sale(f, { transaction_id: unique('txn'), click_id: clickId })
    expect(renewal.status).toBe(200)
    expect(renewal.body.data.commission.amount_cents).toBe(500)
  })
})

describe('commission types (docs/decisions.md)', () => {
  const second = async (fields: Record<string, unknown>, currency = 'USD', amount = 10_000) => {
    const f = await api.setupProgram(fields)
    const key = unique('cust')
    await k.customer(f, key)
    const one = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, currency, amount_cents: amount })
    const two = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, currency, amount_cents: amount })
    return [one.body.data.commission?.amount_cents ?? null, two.body.data.commission?.amount_cents ?? null]
  }
  test('percent pays on the first sale only (the second answers commission null)', async () => {
    expect(await second({ commission_type: 'percent', commission_rate: 12.5 })).toEqual([1250, null])
  })
  test('fixed pays the rate in major units once: 5 USD is 500 cents', async () => {
    expect(await second({ commission_type: 'fixed', commission_rate: 5 })).toEqual([500, null])
  })
  test('fixed in VND pays the rate as is', async () => {
    expect(await second({ commission_type: 'fixed', commission_rate: 5 }, 'VND', 250_000)).toEqual([5, null])
  })
  test('recurring_percent pays on every sale', async () => {
    expect(await second({ commission_type: 'recurring_percent', commission_rate: 20 })).toEqual([2000, 2000])
  })
  test('recurring_fixed pays on every sale', async () => {
    expect(await second({ commission_type: 'recurring_fixed', commission_rate: 3 }, 'EUR')).toEqual([300, 300])
  })

  test('a test sale on a live customer does not convert it: the first live sale still pays', async () => {
    const f = await api.setupProgram({ commission_type: 'fixed', commission_rate: 5 })
    const key = unique('cust')
    const { customerId } = await k.customer(f, key)
    const test = await k.sale(f, { customer_key: key, additional_data: { test_mode: true } })
    expect(test.body.data.commission.amount_cents).toBe(500)
    const live = await k.sale(f, { transaction_id: unique('txn'), customer_key: key })
    expect(live.body.data.commission.amount_cents).toBe(500)
    const row = api.server.deps.database.client.prepare('SELECT status, test_mode FROM customers WHERE id = ?').get(customerId)
    expect(row).toEqual({ status: 'converted', test_mode: 0 })
    expect(
      k.count(
        'SELECT count(*) AS n FROM commissions WHERE sale_id IN (SELECT id FROM sales WHERE customer_id = ?) AND test_mode = 0',
        customerId,
      ),
    ).toBe(1)
  })
})

describe('test data (docs/decisions.md: livemode false is test data like additional_data.test_mode)', () => {
  test('a sale with livemode: false is stored and listed as test data: counted under test, its commission never live', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_fixed', commission_rate: 5 })
    const key = unique('cust')
    await k.customer(f, key)
    const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, livemode: false })
    expect(reply.status).toBe(200)
    const saleId = reply.body.data.sale_id
    expect((await api.admin('GET', `/sales/${saleId}`)).body.data[0]).toMatchObject({ sale_id: saleId, livemode: false, test_mode: true })
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE sale_id = ? AND test_mode = 1', saleId)).toBe(1)
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE sale_id = ? AND test_mode = 0', saleId)).toBe(0)
    const counts = (await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })).body.data.counts
    expect([counts.live.sales, counts.test.sales]).toEqual([0, 1])
    // Never paid: past its holding period (fixed when booked), a payout run finds nothing due.
    api.clock.advance(days(30))
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    expect([run.status, run.body.data]).toEqual([201, []])
  })

  test('livemode: true or absent stays live', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_fixed', commission_rate: 5 })
    const key = unique('cust')
    await k.customer(f, key)
    for (const extra of [{ livemode: true }, {}]) {
      const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, ...extra })
      expect(k.count('SELECT count(*) AS n FROM commissions WHERE sale_id = ? AND test_mode = 0', reply.body.data.sale_id)).toBe(1)
    }
    api.clock.advance(days(30))
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    expect(run.body.data).toMatchObject([{ partner_id: f.partnerId, currency: 'USD', amount_cents: 1000 }])
  })
})

describe('500s', () => {
  test('a failing sale write answers 500 "Sale tracking failed" with error.code internal_error and the request id header', async () => {
    await withOwnServer(async (broken) => {
      const f = await broken.setupProgram()
      const bk = kit(broken)
      await bk.customer(f, 'c1')
      broken.server.deps.database.client.exec(
        "CREATE TRIGGER fail_sale BEFORE INSERT ON sales BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
      )
      const reply = await bk.sale(f, { transaction_id: 't1', customer_key: 'c1' })
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({
        data: null,
        error: { status: 500, name: 'InternalServerError', message: 'Sale tracking failed', details: {}, code: 'internal_error' },
      })
      expect(reply.headers.get('x-request-id')).toBe(broken.errors[0].request_id as string)
    })
  })

  test('a failing commission answers 500 "Failed to create commission" and leaves the sale written (a resend answers 409)', async () => {
    await withOwnServer(async (broken) => {
      const f = await broken.setupProgram()
      const bk = kit(broken)
      await bk.customer(f, 'c1')
      broken.server.deps.database.client.exec(
        "CREATE TRIGGER fail_commission BEFORE INSERT ON commissions BEGIN SELECT RAISE(ABORT, 'ledger locked'); END",
      )
      const reply = await bk.sale(f, { transaction_id: 't1', customer_key: 'c1' })
      expect(reply.status).toBe(500)
      expect(reply.body.error).toMatchObject({ message: 'Failed to create commission', code: 'internal_error' })
      expect(reply.headers.get('x-request-id')).toBe(broken.errors[0].request_id as string)
      expect(bk.count("SELECT count(*) AS n FROM sales WHERE transaction_id = 't1'")).toBe(1)
      expect(bk.count('SELECT count(*) AS n FROM commissions')).toBe(0)
      expect((await bk.sale(f, { transaction_id: 't1', customer_key: 'c1' })).status).toBe(409)
    })
  })
})
