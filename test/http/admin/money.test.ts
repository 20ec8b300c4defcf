// docs/decisions.md, Hostile input (turn 3): money stays exact. A percent rate is at most 100, and
// every amount, commission, balance and payout total is an integer of at most 2^53 − 1 cents; a
// request that would make one larger is refused with 400 naming the field, and nothing is stored.
// The attack these reproduce: a percent rate of 1e9 made commissions of 9.00719925474099e+22 and a
// payouts CSV cell of 1.801439850948198e+23.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api } from '../../helpers.ts'
import { login } from '../cli/fixtures.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const MAX = 9007199254740991

const expectRefused = (reply: { status: number; body: any }, message: string) => {
  expect(reply.status).toBe(400)
  expect(reply.body.data).toBeNull()
  expect(reply.body.error.message).toBe(message)
}

describe('a percent rate is at most 100', () => {
  const percentMessage = 'commission_rate must be at most 100 for the percent and recurring_percent types'

  test('POST /programs with percent 101 or recurring_percent 1e9 answers 400 and creates nothing', async () => {
    const account = await api.admin('POST', '/accounts', { email: `${unique('rate')}@shop.test` })
    const before = k.count('SELECT count(*) AS n FROM programs')
    for (const [type, rate] of [
      ['percent', 101],
      ['recurring_percent', 1e9],
    ] as const) {
      const reply = await api.admin('POST', '/programs', {
        account_id: account.body.data.account_id,
        name: 'Shop',
        domain: 'shop.test',
        commission_type: type,
        commission_rate: rate,
      })
      expectRefused(reply, percentMessage)
    }
    expect(k.count('SELECT count(*) AS n FROM programs')).toBe(before)
    const fixed = await api.admin('POST', '/programs', {
      account_id: account.body.data.account_id,
      name: 'Shop',
      domain: 'shop.test',
      commission_type: 'fixed',
      commission_rate: 1e9,
    })
    expect(fixed.status).toBe(201)
  })

  test('POST /api/v1/cli/init with percent 150 answers 400 and creates nothing', async () => {
    const { token } = await login(api)
    const before = k.count('SELECT count(*) AS n FROM programs')
    const reply = await api.call('POST', '/api/v1/cli/init', {
      token,
      body: { name: 'Shop', domain: 'shop.test', commission_type: 'percent', commission_rate: 150 },
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe(percentMessage)
    expect(k.count('SELECT count(*) AS n FROM programs')).toBe(before)
  })

  test('PATCH judges the rate with the type it will have: either may change alone', async () => {
    const f = await api.setupProgram({ commission_type: 'fixed', commission_rate: 500 })
    expectRefused(await api.admin('PATCH', `/programs/${f.programId}`, { commission_type: 'percent' }), percentMessage)
    const g = await api.setupProgram()
    expectRefused(await api.admin('PATCH', `/programs/${g.programId}`, { commission_rate: 100.5 }), percentMessage)
    const shown = await api.admin('GET', `/programs/${g.programId}`)
    expect(shown.body.data[0].commission_rate).toBe(10)
    expect((await api.admin('PATCH', `/programs/${g.programId}`, { commission_rate: 100 })).status).toBe(200)
    expect((await api.admin('PATCH', `/programs/${f.programId}`, { commission_type: 'percent', commission_rate: 20 })).status).toBe(200)
  })
})

describe("a partner's unpaid balance stays a safe integer", () => {
  test('a sale whose commission would take the balance past 2^53 − 1 cents answers 400 naming amount_cents and stores nothing', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 100, holding_period_days: 0 })
    const key = unique('whale')
    await k.customer(f, key)
    const first = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: MAX - 10 })
    expect(first.status).toBe(200)
    expect(first.body.data.commission.amount_cents).toBe(MAX - 10)
    const sales = k.count('SELECT count(*) AS n FROM sales WHERE program_id = ?', f.programId)
    const entries = k.count('SELECT count(*) AS n FROM commissions WHERE program_id = ?', f.programId)
    const over = await k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: 11 })
    expectRefused(over, "amount_cents would make the partner's unpaid commissions in USD larger than 9007199254740991 cents")
    expect(over.body.error.code).toBe('invalid_request')
    expect(k.count('SELECT count(*) AS n FROM sales WHERE program_id = ?', f.programId)).toBe(sales)
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE program_id = ?', f.programId)).toBe(entries)
    // Up to the limit exactly is taken; another currency is another balance.
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: 10 })).status).toBe(200)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: 1000, currency: 'EUR' })).status).toBe(200)

    // Once paid, the balance is free again; the payout total and its CSV cell are exact.
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    const usd = run.body.data.find((p: { currency: string }) => p.currency === 'USD')
    expect(usd.amount_cents).toBe(MAX)
    const csv = await fetch(`${api.url}/api/v1/admin/programs/${f.programId}/payouts.csv`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    const text = await csv.text()
    expect(text).toContain(',USD,90071992547409.91,')
    expect(text).not.toMatch(/e\+/)
    expect((await api.admin('POST', `/payouts/${usd.payout_id}/paid`, {})).status).toBe(200)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: 500 })).status).toBe(200)
  })
})
