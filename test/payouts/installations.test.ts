// docs/payouts.md, Two servers, one provider account: payout ids start at 1 in every database, so
// a second svc (a reinstall, another instance, a restored backup) on the same PayPal or Stripe
// account must neither reuse another's batch nor settle a payout on a transfer made for another.
// Against the local fakes of PayPal's and Stripe's documented APIs (fake-paypal.ts, fake-stripe.ts).
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { type Api, startApi } from '../helpers.ts'
import { type FakePayPal, PAYPAL_ENV, startFakePayPal } from './fake-paypal.ts'
import { type FakeStripe, STRIPE_ENV, startFakeStripe } from './fake-stripe.ts'
import { payoutKit } from './kit.ts'

let paypal: FakePayPal, stripe: FakeStripe
const started: Api[] = []
beforeAll(async () => {
  paypal = await startFakePayPal()
  stripe = await startFakeStripe()
})
afterAll(async () => {
  for (const api of started) await api.stop()
  await paypal.stop()
  await stripe.stop()
})
beforeEach(() => {
  paypal.mode = 'ok'
  stripe.mode = 'ok'
  // Each case starts a day apart on Stripe's side: the keys of the one before are forgotten.
  stripe.forgetKeys()
})

/** A fresh svc (its own database, unless `databasePath` names one) on the shared fake accounts. */
async function server(databasePath?: string) {
  const api = await startApi({
    env: {
      SVC_RATE_LIMIT_SCALE: '1000',
      ...PAYPAL_ENV(paypal.url),
      ...STRIPE_ENV(stripe.url),
      ...(databasePath ? { DATABASE_PATH: databasePath } : {}),
    },
  })
  started.push(api)
  return { api, p: payoutKit(api) }
}

const payoutOf = async (api: Api, id: number) => (await api.admin('GET', `/payouts/${id}`)).body.data[0]
/** Waits until the payout is no longer processing, moving the server's clock past each poll. */
async function settled(api: Api, id: number) {
  for (let i = 0; i < 250; i++) {
    const payout = await payoutOf(api, id)
    if (payout.status !== 'processing' && payout.status !== 'pending') return payout
    api.clock.advance(5_000)
    await Bun.sleep(20)
  }
  throw new Error(`payout ${id} still processing`)
}

/** Backs `api`'s database up (as VACUUM INTO does, a consistent copy) into a new file: its path. */
function backup(api: Api): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'svc-restore-')), 'svc.db')
  const live = new Database(api.server.deps.config.databasePath)
  live.run(`VACUUM INTO '${copy}'`)
  live.close()
  return copy
}

/** Sends the program's pending payouts by `rail` and waits for `payoutId` to be final. */
async function sendAll(api: Api, programId: number, rail: string, payoutId: number) {
  await api.admin('POST', `/programs/${programId}/payouts/send`, { rail })
  return settled(api, payoutId)
}

/** One pending payout of `cents` to a new partner of a fresh program of `s`, paid by `method` to `details`. */
async function owed(s: Awaited<ReturnType<typeof server>>, method: string, details: string, cents: number) {
  const f = await s.api.setupProgram({ holding_period_days: 0 })
  const partner = await s.p.partner(f, method, details)
  await s.p.sale(partner, cents)
  const [made] = await s.p.run(f)
  return { f, partner, payoutId: made.payout_id as number }
}

describe('PayPal, two installations on one account', () => {
  test("a second database's payout 1 gets its own batch and is paid by its own item, not by the first's", async () => {
    const a = await server()
    const b = await server()
    const first = await owed(a, 'paypal', 'ada@paypal.test', 10000)
    const second = await owed(b, 'paypal', 'bo@paypal.test', 20000)
    expect(second.payoutId).toBe(first.payoutId)
    await a.api.admin('POST', `/programs/${first.f.programId}/payouts/send`, { rail: 'paypal' })
    expect((await settled(a.api, first.payoutId)).status).toBe('paid')
    await b.api.admin('POST', `/programs/${second.f.programId}/payouts/send`, { rail: 'paypal' })
    const paid = await settled(b.api, second.payoutId)
    expect(paid.status).toBe('paid')
    const item = paypal.batches.flatMap((x) => x.items).find((i) => i.payout_item_id === paid.reference)!
    expect(item.payout_item).toMatchObject({ receiver: 'bo@paypal.test', amount: { value: '20.00', currency: 'USD' } })
    const [keyA, keyB] = paypal.batches.slice(-2).map((x) => x.sender_batch_id)
    expect(keyA).not.toBe(keyB)
  })

  test('a restored backup sending the same payout to other details: PayPal answers the original batch, whose item does not match: failed, never paid', async () => {
    const a = await server()
    const earlier = await owed(a, 'paypal', 'ada@paypal.test', 5000)
    expect((await sendAll(a.api, earlier.f.programId, 'paypal', earlier.payoutId)).status).toBe('paid')
    const first = await owed(a, 'paypal', 'ada@paypal.test', 10000)
    // The backup, taken while the payout was pending, restored on a second server.
    const copy = backup(a.api)
    expect((await sendAll(a.api, first.f.programId, 'paypal', first.payoutId)).status).toBe('paid')
    const batches = paypal.batches.length

    const c = await server(copy)
    await c.api.admin('PATCH', `/programs/${first.f.programId}/partners/${first.partner.partnerId}`, {
      payout_method: 'paypal',
      payout_details: 'other@paypal.test',
    })
    await c.api.admin('POST', `/programs/${first.f.programId}/payouts/send`, { rail: 'paypal' })
    const failed = await settled(c.api, first.payoutId)
    expect(failed.status).toBe('failed')
    expect(failed.failure_reason).toBe(
      `PayPal item payout_${first.payoutId} does not match the payout: receiver ada@paypal.test, not other@paypal.test`,
    )
    expect(paypal.batches.length).toBe(batches)
  })
})

describe('Stripe, two installations on one account', () => {
  test("past Stripe's 24 hours, another installation's transfer in the same transfer_group is not this payout's: it is sent, and paid by its own", async () => {
    const a = await server()
    const b = await server()
    for (const account of ['acct_first', 'acct_second'])
      stripe.accounts.set(account, { id: account, type: 'express', metadata: {}, details_submitted: true })
    const first = await owed(a, 'stripe', 'acct_first', 10000)
    const second = await owed(b, 'stripe', 'acct_second', 20000)
    expect(second.payoutId).toBe(first.payoutId)
    await a.api.admin('POST', `/programs/${first.f.programId}/payouts/send`, { rail: 'stripe' })
    const paidA = await settled(a.api, first.payoutId)
    expect(paidA.status).toBe('paid')
    // The second's first attempt gets no answer; a day later it looks its transfer up first.
    stripe.mode = 'fail'
    await b.api.admin('POST', `/programs/${second.f.programId}/payouts/send`, { rail: 'stripe' })
    for (let i = 0; i < 250 && !stripe.requests.some((r) => r.body.includes('acct_second')); i++) await Bun.sleep(20)
    stripe.mode = 'ok'
    stripe.forgetKeys()
    b.api.clock.advance(25 * 3_600_000)
    const paidB = await settled(b.api, second.payoutId)
    expect(paidB.status).toBe('paid')
    expect(paidB.reference).not.toBe(paidA.reference)
    expect(stripe.transfers.find((t) => t.id === paidB.reference)).toMatchObject({ destination: 'acct_second', amount: 2000 })
  })

  test('a restored backup whose payout now names another account: the transfer found in its group does not match: failed, never paid', async () => {
    const a = await server()
    stripe.accounts.set('acct_old', { id: 'acct_old', type: 'express', metadata: {}, details_submitted: true })
    stripe.accounts.set('acct_new', { id: 'acct_new', type: 'express', metadata: {}, details_submitted: true })
    const earlier = await owed(a, 'stripe', 'acct_old', 5000)
    expect((await sendAll(a.api, earlier.f.programId, 'stripe', earlier.payoutId)).status).toBe('paid')
    const first = await owed(a, 'stripe', 'acct_old', 10000)
    const copy = backup(a.api)
    expect((await sendAll(a.api, first.f.programId, 'stripe', first.payoutId)).status).toBe('paid')
    const transfers = stripe.transfers.length

    const c = await server(copy)
    await c.api.admin('PATCH', `/programs/${first.f.programId}/partners/${first.partner.partnerId}`, {
      payout_method: 'stripe',
      payout_details: 'acct_new',
    })
    stripe.forgetKeys()
    c.api.clock.advance(25 * 3_600_000)
    stripe.mode = 'fail'
    await c.api.admin('POST', `/programs/${first.f.programId}/payouts/send`, { rail: 'stripe' })
    for (let i = 0; i < 250 && !stripe.requests.some((r) => r.body.includes('acct_new')); i++) await Bun.sleep(20)
    stripe.mode = 'ok'
    c.api.clock.advance(25 * 3_600_000)
    const failed = await settled(c.api, first.payoutId)
    expect(failed.status).toBe('failed')
    expect(failed.failure_reason).toContain('does not match the payout: destination acct_old, not acct_new')
    expect(stripe.transfers.length).toBe(transfers)
  })
})
