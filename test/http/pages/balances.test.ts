// The partners page's commission figures (pending, due, in payout, paid per partner and currency)
// are read from ledger_balances, a table the ledger writes keep by triggers (src/db/schema.ts).
// They must equal the operator API's per-entry statuses (GET /programs/:id/commissions) summed
// per partner and currency, through every kind of write and as the clock moves across the
// holding period's day boundaries.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { days, type Api } from '../../helpers.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'
import { signInAccount } from './sessions.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const HOUR = 3_600_000

const signIn = (accountId: number) => signInAccount(api, accountId)

async function allEntries(programId: number) {
  const rows: any[] = []
  let cursor: string | null = null
  do {
    const reply = await api.admin('GET', `/programs/${programId}/commissions?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
    rows.push(...reply.body.data)
    cursor = reply.body.next_cursor
  } while (cursor)
  return rows
}

type Totals = { pending: number; due: number; in_payout: number; paid: number }
const zero = (): Totals => ({ pending: 0, due: 0, in_payout: 0, paid: 0 })

/** What the API says, per "partner currency": the entries' amounts summed by status (reversed left out, as the page does). */
async function fromApi(programId: number) {
  const out: Record<string, Totals> = {}
  const entries = await allEntries(programId)
  for (const e of entries) {
    const totals = (out[`${e.partner_id} ${e.currency}`] ??= zero())
    if (e.status !== 'reversed') totals[e.status as keyof Totals] += e.amount_cents
  }
  return { totals: out, statuses: new Set(entries.map((e) => `${e.status} ${e.currency}`)) }
}

/** What the partners page shows, per "partner currency". */
async function fromPage(programId: number, cookie: string) {
  const response = await fetch(`${api.url}/dashboard/programs/${programId}/partners`, { headers: { cookie }, redirect: 'manual' })
  expect(response.status).toBe(200)
  const text = await response.text()
  const out: Record<string, Totals> = {}
  for (const article of text.split('<tr data-partner="').slice(1)) {
    const partnerId = article.slice(0, article.indexOf('"'))
    for (const [, currency, line] of article.matchAll(/data-status-currency="([A-Z]{3})">(.*?)<\/span><\/span>/g)) {
      const totals = (out[`${partnerId} ${currency}`] = zero())
      for (const [, amount, status] of line.matchAll(/[A-Z]{3} (-?[\d,]+\.\d\d) (pending|due|in payout|paid)/g)) {
        totals[status.replace(' ', '_') as keyof Totals] = Math.round(Number(amount.replaceAll(',', '')) * 100)
      }
    }
  }
  return out
}

test("the partners page's pending, due, in payout and paid equal the API's entry statuses summed per partner and currency", async () => {
  const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, holding_period_days: 7, minimum_payout: 0 })
  const second = await k.partnerLink(f, unique('p2'))
  const customers = [unique('c0'), unique('c1')]
  await k.customer(f, customers[0])
  await k.customer(second, customers[1])
  const sale = async (partner: number, currency: string, amount: number) => {
    const txn = unique('t')
    expect((await k.sale(f, { transaction_id: txn, customer_key: customers[partner], amount_cents: amount, currency })).status).toBe(200)
    return txn
  }
  const refund = async (txn: string, reason = 'refund') => expect((await k.refund(f, { transaction_id: txn, reason })).status).toBe(200)
  const seen = new Set<string>()
  const check = async () => {
    const api = await fromApi(f.programId)
    // Signed in again each time: the clock moves past a session's lifetime.
    expect(await fromPage(f.programId, await signIn(f.accountId))).toEqual(api.totals)
    for (const status of api.statuses) seen.add(status)
  }

  await sale(0, 'USD', 10_000)
  const reversedUsd = await sale(0, 'USD', 20_000)
  const paidEur = await sale(0, 'EUR', 30_000)
  const canceledUsd = await sale(1, 'USD', 40_000)
  await sale(1, 'EUR', 50_000)
  const reversedEur = await sale(1, 'EUR', 60_000)
  await check()
  api.clock.advance(days(7) + 5 * HOUR)
  await refund(reversedUsd)
  await refund(reversedEur, 'chargeback')
  await check()
  const run = await api.admin('POST', `/programs/${f.programId}/payouts`)
  expect(run.status).toBe(201)
  const payoutOf = (partnerId: number, currency: string) =>
    run.body.data.find((p: any) => p.partner_id === partnerId && p.currency === currency).payout_id
  await check()
  expect((await api.admin('POST', `/payouts/${payoutOf(f.partnerId, 'USD')}/paid`, { reference: 'r1' })).status).toBe(200)
  await check()
  // A commission refunded while in a payout: its reversal is due at once, negative (it nets against
  // the next payout), and stays so when the payout is paid.
  await refund(paidEur)
  await check()
  expect((await api.admin('POST', `/payouts/${payoutOf(f.partnerId, 'EUR')}/paid`, { reference: 'r2' })).status).toBe(200)
  await check()
  // Refunded while in a payout that is then canceled: commission and reversal cancel out (reversed).
  await refund(canceledUsd, 'chargeback')
  await check()
  expect((await api.admin('POST', `/payouts/${payoutOf(second.partnerId, 'USD')}/cancel`)).status).toBe(200)
  await check()
  expect((await api.admin('POST', `/payouts/${payoutOf(second.partnerId, 'EUR')}/cancel`)).status).toBe(200)
  await check()
  // The canceled payout's entry is due again: a second run puts it in a new payout.
  expect((await api.admin('POST', `/programs/${f.programId}/payouts`)).body.data).toHaveLength(1)
  await check()
  api.clock.advance(2 * HOUR)
  await sale(0, 'USD', 7_000)
  await sale(1, 'EUR', 8_000)
  const late = await sale(1, 'USD', 9_000)
  await refund(late)
  api.clock.advance(3 * HOUR)
  await sale(0, 'EUR', 11_000)
  await check()
  // The clock crosses the holding period's end of each entry, hour by hour: pending turns due.
  for (let step = 0; step < 16; step++) {
    api.clock.advance(11 * HOUR)
    await check()
  }
  const final = await fromApi(f.programId)
  expect(Object.values(final.totals).every((t) => t.pending === 0)).toBe(true)
  for (const currency of ['USD', 'EUR']) {
    for (const status of ['pending', 'due', 'in_payout', 'paid', 'reversed']) expect(seen).toContain(`${status} ${currency}`)
  }
})
