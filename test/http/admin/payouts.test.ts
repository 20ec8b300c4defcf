// Payouts (docs/decisions.md, Payouts): program terms, commission statuses, runs, paid, cancel, CSV.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, days, type Api, type Fixture } from '../../helpers.ts'
import { trackingSetup, type Kit, unique } from '../track/kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

// recurring_fixed 5: every sale of a customer earns 5 major units (500 cents; VND 5).
const terms = { commission_type: 'recurring_fixed', commission_rate: 5 }

/** A customer of the fixture's partner and a function that records one sale for it. */
async function buyer(f: Fixture) {
  const customerKey = unique('cust')
  await k.customer(f, customerKey)
  return async (currency = 'USD', extra: Record<string, unknown> = {}) => {
    const transactionId = unique('txn')
    const reply = await k.sale(f, { transaction_id: transactionId, customer_key: customerKey, currency, ...extra })
    if (reply.status !== 200) throw new Error(`sale: ${reply.status} ${JSON.stringify(reply.body)}`)
    return transactionId
  }
}

const run = (f: Fixture, body?: unknown) => api.admin('POST', `/programs/${f.programId}/payouts`, body)
const statuses = async (f: Fixture) =>
  (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data.map((e: any) => `${e.kind}:${e.amount_cents}:${e.status}`)

describe('program payout terms', () => {
  test('a program has holding_period_days 30 and minimum_payout 0 unless told; PATCH changes them and GET shows them', async () => {
    const f = await api.setupProgram()
    const shown = async () => (await api.admin('GET', `/programs/${f.programId}`)).body.data[0]
    expect(await shown()).toMatchObject({ holding_period_days: 30, minimum_payout: 0 })
    const patched = await api.admin('PATCH', `/programs/${f.programId}`, { holding_period_days: 0, minimum_payout: 12.5 })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ holding_period_days: 0, minimum_payout: 12.5 })
    expect(await shown()).toMatchObject({ holding_period_days: 0, minimum_payout: 12.5 })
    const made = await api.setupProgram({ holding_period_days: 365, minimum_payout: 50 })
    expect((await api.admin('GET', `/programs/${made.programId}`)).body.data[0]).toMatchObject({
      holding_period_days: 365,
      minimum_payout: 50,
    })
  })

  test('out of range or mistyped terms answer 400 naming the field, and change nothing', async () => {
    const f = await api.setupProgram()
    for (const value of [-1, 366, 1.5, '30', true]) {
      const reply = await api.admin('PATCH', `/programs/${f.programId}`, { holding_period_days: value })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toBe('holding_period_days must be a whole number from 0 to 365')
    }
    for (const value of [-0.01, '50', 1e13, {}]) {
      const reply = await api.admin('PATCH', `/programs/${f.programId}`, { minimum_payout: value })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toBe('minimum_payout must be a number of major units from 0 to 1000000000000')
    }
    const { body } = await api.admin('POST', '/accounts', { email: unique('o') + '@shop.test' })
    const created = await api.admin('POST', '/programs', {
      account_id: body.data.account_id,
      name: 'P',
      domain: 'shop.test',
      commission_type: 'percent',
      commission_rate: 10,
      holding_period_days: 400,
    })
    expect(created.status).toBe(400)
    expect(created.body.error.message).toBe('holding_period_days must be a whole number from 0 to 365')
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0]).toMatchObject({ holding_period_days: 30, minimum_payout: 0 })
  })
})

describe('commission status', () => {
  test('pending while younger than the holding period, then due, in_payout and paid', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 14 })
    await (await buyer(f))()
    expect(await statuses(f)).toEqual(['commission:500:pending'])
    api.clock.advance(days(14) - 1)
    expect(await statuses(f)).toEqual(['commission:500:pending'])
    expect((await run(f)).body.data).toEqual([])
    api.clock.advance(1)
    expect(await statuses(f)).toEqual(['commission:500:due'])
    const [payout] = (await run(f)).body.data
    expect(await statuses(f)).toEqual(['commission:500:in_payout'])
    await api.admin('POST', `/payouts/${payout.payout_id}/paid`)
    expect(await statuses(f)).toEqual(['commission:500:paid'])
  })

  test('a commission refunded before any payout is reversed (both entries) and never paid', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const txn = await (await buyer(f))()
    await k.refund(f, { transaction_id: txn, reason: 'refund' })
    expect(await statuses(f)).toEqual(['reversal:-500:reversed', 'commission:500:reversed'])
    expect((await run(f)).body.data).toEqual([])
  })

  test('a test-mode commission is never paid out', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    await (await buyer(f))('USD', { additional_data: { test_mode: true } })
    expect((await run(f)).body.data).toEqual([])
  })
})

describe('payout runs', () => {
  test('one payout per partner and currency; a second run with nothing new due creates none', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const g = await k.partnerLink(f, unique('second'))
    const sellF = await buyer(f)
    const sellG = await buyer(g)
    await sellF('USD')
    await sellF('USD')
    await sellF('VND')
    await sellG('EUR')
    const first = await run(f)
    expect(first.status).toBe(201)
    expect(first.body.data.map((p: any) => [p.partner_id, p.currency, p.amount_cents, p.commissions, p.status])).toEqual([
      [f.partnerId, 'USD', 1000, 2, 'pending'],
      [f.partnerId, 'VND', 5, 1, 'pending'],
      [g.partnerId, 'EUR', 500, 1, 'pending'],
    ])
    expect(first.body.data[0]).toEqual({
      payout_id: expect.any(Number),
      program_id: f.programId,
      partner_id: f.partnerId,
      currency: 'USD',
      amount_cents: 1000,
      commissions: 2,
      status: 'pending',
      reference: null,
      created_at: new Date(api.clock.now()).toISOString(),
      paid_at: null,
      canceled_at: null,
      failure_reason: null,
      // An imported payout names its tool and id (docs/imports.md); a run's has none.
      source: null,
      source_id: null,
    })
    const second = await run(f)
    expect(second.status).toBe(201)
    expect(second.body).toEqual({ data: [], error: null })
    const listed = await api.admin('GET', `/programs/${f.programId}/payouts`)
    expect(listed.body.data.map((p: any) => p.payout_id)).toEqual(first.body.data.map((p: any) => p.payout_id).reverse())
    expect(listed.body.next_cursor).toBeNull()
    const paged = await api.admin('GET', `/programs/${f.programId}/payouts?limit=2`)
    expect(paged.body.data).toHaveLength(2)
    expect((await api.admin('GET', `/programs/${f.programId}/payouts?cursor=${paged.body.next_cursor}`)).body.data).toHaveLength(1)
  })

  test('a payout detail is a list of one payout with its ledger entries', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const sell = await buyer(f)
    await sell()
    await sell()
    const [payout] = (await run(f)).body.data
    const reply = await api.admin('GET', `/payouts/${payout.payout_id}`)
    expect(reply.status).toBe(200)
    expect(reply.body.next_cursor).toBeNull()
    expect(reply.body.data).toHaveLength(1)
    expect(reply.body.data[0]).toMatchObject({
      ...payout,
      entries: [
        { commission_id: expect.any(Number), kind: 'commission', amount_cents: 500, created_at: expect.any(String) },
        { commission_id: expect.any(Number), kind: 'commission', amount_cents: 500, created_at: expect.any(String) },
      ],
    })
    expect((await api.admin('GET', '/payouts/999999')).status).toBe(404)
    expect((await api.admin('GET', '/payouts/abc')).body.error.message).toBe('Payout not found')
  })

  test('until pays only what was due by then; a time not ISO 8601 answers 400', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 10 })
    const sell = await buyer(f)
    await sell()
    const firstDue = api.clock.now() + days(10)
    api.clock.advance(days(5))
    await sell()
    api.clock.advance(days(20))
    expect((await run(f, { until: new Date(firstDue - 1).toISOString() })).body.data).toEqual([])
    expect((await run(f, { until: new Date(firstDue).toISOString() })).body.data.map((p: any) => p.amount_cents)).toEqual([500])
    expect(
      (await run(f, { until: new Date(api.clock.now() + days(365)).toISOString() })).body.data.map((p: any) => p.amount_cents),
    ).toEqual([500])
    for (const until of ['yesterday', '2026-13-01', 5]) {
      const reply = await run(f, { until })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toBe('until must be an ISO 8601 date or time')
    }
    expect((await api.admin('POST', '/programs/999999/payouts')).status).toBe(404)
  })

  test('a net below minimum_payout makes no payout until enough is due', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0, minimum_payout: 10 })
    const sell = await buyer(f)
    await sell()
    await sell('VND')
    expect((await run(f)).body.data).toEqual([])
    await sell()
    expect((await run(f)).body.data.map((p: any) => [p.currency, p.amount_cents])).toEqual([['USD', 1000]])
  })

  test("two runs racing create each entry's payout once", async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const sell = await buyer(f)
    await sell()
    await sell()
    await sell()
    const replies = await Promise.all([run(f), run(f), run(f)])
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201])
    const created = replies.flatMap((r) => r.body.data)
    expect(created.map((p: any) => p.amount_cents)).toEqual([1500])
    expect(
      k.count('SELECT count(*) AS n FROM payout_entries pe JOIN payouts p ON p.id = pe.payout_id WHERE p.program_id = ?', f.programId),
    ).toBe(3)
  })

  test('the database refuses a second pending or paid payout for one ledger entry (UNIQUE)', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    await (await buyer(f))()
    const [payout] = (await run(f)).body.data
    const { client } = api.server.deps.database
    const entry = client.prepare('SELECT ledger_entry_id AS id FROM payout_entries WHERE payout_id = ?').get(payout.payout_id) as {
      id: number
    }
    expect(() =>
      client
        .prepare("INSERT INTO payout_entries (payout_id, ledger_entry_id, status) VALUES (?, ?, 'paid')")
        .run(payout.payout_id, entry.id),
    ).toThrow(/UNIQUE/)
    // A canceled payout frees its entries.
    client
      .prepare("INSERT INTO payout_entries (payout_id, ledger_entry_id, status) VALUES (?, ?, 'canceled')")
      .run(payout.payout_id, entry.id)
  })
})

describe('paid and cancel', () => {
  test('mark paid records the reference; repeating it answers the same payout', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    await (await buyer(f))()
    const [payout] = (await run(f)).body.data
    const paidAt = new Date(api.clock.now()).toISOString()
    const paid = await api.admin('POST', `/payouts/${payout.payout_id}/paid`, { reference: 'SEPA-2026-06' })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toEqual({ ...payout, status: 'paid', reference: 'SEPA-2026-06', paid_at: paidAt })
    api.clock.advance(days(1))
    const again = await api.admin('POST', `/payouts/${payout.payout_id}/paid`, { reference: 'other' })
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual(paid.body.data)
    const canceled = await api.admin('POST', `/payouts/${payout.payout_id}/cancel`)
    expect(canceled.status).toBe(409)
    expect(canceled.body.error).toMatchObject({ status: 409, message: 'A paid payout cannot be canceled' })
    expect((await api.admin('POST', `/payouts/${payout.payout_id}/paid`, { reference: 5 })).body.error.message).toBe(
      'reference must be a string of at most 500 characters',
    )
    expect((await api.admin('POST', '/payouts/999999/paid')).status).toBe(404)
  })

  test('cancel makes the entries due again; the next run pays them; a canceled payout cannot be paid', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    await (await buyer(f))()
    const [payout] = (await run(f)).body.data
    const canceled = await api.admin('POST', `/payouts/${payout.payout_id}/cancel`)
    expect(canceled.status).toBe(200)
    expect(canceled.body.data).toMatchObject({ payout_id: payout.payout_id, status: 'canceled', canceled_at: expect.any(String) })
    expect((await api.admin('POST', `/payouts/${payout.payout_id}/cancel`)).body.data).toEqual(canceled.body.data)
    expect(await statuses(f)).toEqual(['commission:500:due'])
    const paying = await api.admin('POST', `/payouts/${payout.payout_id}/paid`)
    expect(paying.status).toBe(409)
    expect(paying.body.error.message).toBe('A canceled payout cannot be marked paid')
    const [again] = (await run(f)).body.data
    expect(again).toMatchObject({ amount_cents: 500, status: 'pending' })
    expect(again.payout_id).not.toBe(payout.payout_id)
    expect((await api.admin('GET', `/payouts/${payout.payout_id}`)).body.data[0].entries).toHaveLength(1)
  })
})

describe('reversals after payment', () => {
  test('a refund of a paid commission is due at once and nets against the next payout', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 7 })
    const sell = await buyer(f)
    const txn = await sell()
    api.clock.advance(days(7))
    const [first] = (await run(f)).body.data
    await api.admin('POST', `/payouts/${first.payout_id}/paid`)
    await k.refund(f, { transaction_id: txn, reason: 'chargeback' })
    await sell()
    await sell()
    expect(await statuses(f)).toEqual(['commission:500:pending', 'commission:500:pending', 'reversal:-500:due', 'commission:500:paid'])
    // The reversal alone is a negative net: no payout.
    expect((await run(f)).body.data).toEqual([])
    api.clock.advance(days(7))
    const [next] = (await run(f)).body.data
    expect(next).toMatchObject({ amount_cents: 500, commissions: 3 })
    expect(await statuses(f)).toEqual([
      'commission:500:in_payout',
      'commission:500:in_payout',
      'reversal:-500:in_payout',
      'commission:500:paid',
    ])
  })

  test('a negative balance in one currency makes no payout there and leaves the other currency alone', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const sell = await buyer(f)
    const a = await sell()
    const b = await sell()
    const [first] = (await run(f)).body.data
    await api.admin('POST', `/payouts/${first.payout_id}/paid`)
    await k.refund(f, { transaction_id: a, reason: 'refund' })
    await k.refund(f, { transaction_id: b, reason: 'refund' })
    await sell()
    await sell('EUR')
    expect((await run(f)).body.data.map((p: any) => [p.currency, p.amount_cents])).toEqual([['EUR', 500]])
  })
})

describe('payouts CSV', () => {
  test('a header row, amounts in major units, pending and paid by default, ?status= to choose', async () => {
    const f = await api.setupProgram({ ...terms, holding_period_days: 0 })
    const hostile = await api.admin('POST', `/programs/${f.programId}/partners`, {
      name: '=HYPERLINK("http://x.test","a, b")',
      email: 'p@shop.test',
    })
    const shortLink = unique('hostile')
    await api.admin('POST', `/programs/${f.programId}/links`, { partner_id: hostile.body.data.partner_id, short_link: shortLink })
    const g = { ...f, partnerId: hostile.body.data.partner_id, shortLink }
    await (await buyer(f))('VND')
    const sellG = await buyer(g)
    await sellG('USD')
    await sellG('USD')
    await sellG('EUR')
    const created = (await run(f)).body.data
    const [vnd, eur, usd] = created.map((p: any) => p.payout_id)
    await api.admin('POST', `/payouts/${usd}/paid`)
    await api.admin('POST', `/payouts/${eur}/cancel`)

    const firstName = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.find(
      (p: any) => p.partner_id === f.partnerId,
    ).name
    const reply = await api.call('GET', `/api/v1/admin/programs/${f.programId}/payouts.csv`, { token: ADMIN_TOKEN })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="payouts-program-${f.programId}.csv"`)
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(reply.body).toBe(
      [
        'payout_id,partner_id,partner_name,partner_email,currency,amount,commissions,status,payout_method,payout_details',
        `${usd},${g.partnerId},"'=HYPERLINK(""http://x.test"",""a, b"")",p@shop.test,USD,10.00,2,paid,,`,
        `${vnd},${f.partnerId},${firstName},,VND,5,1,pending,,`,
        '',
      ].join('\r\n'),
    )
    const canceledOnly = await api.call('GET', `/api/v1/admin/programs/${f.programId}/payouts.csv?status=canceled`, { token: ADMIN_TOKEN })
    expect(canceledOnly.body.split('\r\n').slice(1)).toEqual([
      `${eur},${g.partnerId},"'=HYPERLINK(""http://x.test"",""a, b"")",p@shop.test,EUR,5.00,1,canceled,,`,
      '',
    ])
    const bad = await api.call('GET', `/api/v1/admin/programs/${f.programId}/payouts.csv?status=open`, { token: ADMIN_TOKEN })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('status must be pending, processing, paid, failed or canceled (several separated by commas)')
  })
})
