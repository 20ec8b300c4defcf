import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api, Fixture } from '../../helpers.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'
import { drivers, type Driver, type Payment, type Sent } from './drivers.ts'

// The processors' contract (src/processors/README.md; docs/decisions.md, Selling
// anywhere): every processor through the same cases, over real HTTP, each event signed as its
// processor signs it. A case a processor cannot express is listed as not applicable, with why.
let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

/** A recurring program (renewals pay) taking both modes, with the processor's secret set. */
async function setup(d: Driver, fields: Record<string, unknown> = {}) {
  const f: Fixture = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, livemode: null, ...fields })
  const secret = d.secret()
  const patched = await api.admin('PATCH', `/programs/${f.programId}`, { [d.secretField]: secret })
  expect(patched.status).toBe(200)
  expect(patched.body.data[d.secretField]).not.toContain(secret.slice(-6)) // write-only
  const path = `/api/v1/webhooks/${d.name}/${f.programId}`
  const post = async (
    sent: Sent,
    options: { skewSeconds?: number; secret?: string; id?: string; headers?: Record<string, string> } = {},
  ) => {
    const seconds = Math.floor(api.clock.now() / 1000) + (options.skewSeconds ?? 0)
    const signed = await d.sign(sent.body, options.secret ?? secret, seconds, options.id ?? unique('msg'))
    return api.call('POST', path, { body: sent.body, headers: { 'content-type': 'application/json', ...signed, ...options.headers } })
  }
  const list = async (what: string) => (await api.admin('GET', `/programs/${f.programId}/${what}`)).body.data as Record<string, any>[]
  return { f, secret, post, list }
}

const firstPayment = async (f: Fixture, extra: Partial<Payment> = {}): Promise<Payment> => ({
  customer: d_customer(),
  clickId: await k.clickId(f),
  net: 4500,
  tax: 500,
  currency: 'USD',
  ...extra,
})
// Lemon Squeezy's customer ids are numbers; the others' are strings: a number reads as both.
const d_customer = () => String(Math.floor(Math.random() * 1e9))

for (const d of drivers) {
  describe(`${d.label} (POST /api/v1/webhooks/${d.name}/:program_id)`, () => {
    test('first payment with a click id: the sale net of tax, attributed to the click’s partner, its event attributed', async () => {
      const { f, post, list } = await setup(d)
      const p = await firstPayment(f)
      const sale = d.payment(p)
      const reply = await post(sale)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ received: true })
      const [row] = await list('sales')
      expect(row).toMatchObject({ transaction_id: sale.transactionId, amount_cents: 4500, currency: 'USD', provider: d.name })
      expect((await list('commissions')).map((c) => [c.partner_id, c.amount_cents])).toEqual([[f.partnerId, 450]])
      const [event] = await list('events')
      expect(event).toMatchObject({ outcome: 'attributed', sale_id: row!.sale_id })
    })

    test('renewal: a later payment of the same processor customer without custom data pays the recurring commission', async () => {
      const { f, post, list } = await setup(d)
      const p = await firstPayment(f)
      expect((await post(d.payment(p))).status).toBe(200)
      api.clock.advance(30 * 86_400_000)
      const renewal = d.payment({ ...p, renewal: true, net: 3000, tax: 300 })
      expect((await post(renewal)).status).toBe(200)
      const sales = await list('sales')
      expect(sales.map((s) => s.amount_cents).sort()).toEqual([3000, 4500])
      expect(new Set(sales.map((s) => s.customer_id)).size).toBe(1)
      expect((await list('commissions')).map((c) => c.amount_cents).sort()).toEqual([300, 450])
      expect(await list('customers')).toHaveLength(1)
    })

    test('replay: the same delivery again is 200, stored once, counted once', async () => {
      const { f, post, list } = await setup(d)
      const sale = d.payment(await firstPayment(f))
      const id = unique('msg')
      expect((await post(sale, { id })).status).toBe(200)
      const again = await post(sale, { id })
      expect(again.status).toBe(200)
      expect(again.body).toEqual({ received: true })
      expect(await list('sales')).toHaveLength(1)
      expect(await list('commissions')).toHaveLength(1)
      expect(await list('events')).toHaveLength(1)
    })

    test('bad signature: 400, nothing recorded', async () => {
      const { f, post, list } = await setup(d)
      const reply = await post(d.payment(await firstPayment(f)), { secret: 'not-the-secret' })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toStartWith('No valid signature for this endpoint in the')
      const missing = await api.call('POST', `/api/v1/webhooks/${d.name}/${f.programId}`, { body: d.payment(await firstPayment(f)).body })
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toStartWith('Missing ')
      expect([await list('events'), await list('sales')]).toEqual([[], []])
    })

    if (d.staleAfterSeconds === null) test.skip(`old timestamp — not applicable: ${d.label} signs no time`, () => {})
    else
      test(`old timestamp: a signature older than ${d.staleAfterSeconds} s is 400, nothing recorded; just inside passes`, async () => {
        const { f, post, list } = await setup(d)
        const stale = await post(d.payment(await firstPayment(f)), { skewSeconds: -(d.staleAfterSeconds! + 1) })
        expect(stale.status).toBe(400)
        expect(stale.body.error.message).toContain(`more than ${d.staleAfterSeconds} seconds from the server time`)
        expect(await list('events')).toEqual([])
        expect((await post(d.payment(await firstPayment(f)), { skewSeconds: -d.staleAfterSeconds! })).status).toBe(200)
      })

    test('refund: the sale is refunded and its commission reversed; the event says so', async () => {
      const { f, post, list } = await setup(d)
      const p = await firstPayment(f)
      const sale = d.payment(p)
      await post(sale)
      expect((await post(d.refund(sale, p))).status).toBe(200)
      expect((await list('sales'))[0]).toMatchObject({ status: 'refunded' })
      expect((await list('commissions')).map((c) => [c.kind, c.amount_cents]).sort()).toEqual([
        ['commission', 450],
        ['reversal', -450],
      ])
      expect((await list('events')).map((e) => e.outcome).sort()).toEqual(['attributed', 'refunded'])
    })

    if (d.chargeback === null) test.skip(`chargeback — not applicable: ${d.label} sends no chargeback event`, () => {})
    else
      test('chargeback: the sale is charged back and its commission reversed', async () => {
        const { f, post, list } = await setup(d)
        const p = await firstPayment(f)
        const sale = d.payment(p)
        await post(sale)
        expect((await post(d.chargeback!(sale, p))).status).toBe(200)
        expect((await list('sales'))[0]).toMatchObject({ status: 'charged_back' })
        expect((await list('commissions')).map((c) => c.amount_cents).sort()).toEqual([-450, 450])
      })

    if (!d.testMode) test.skip(`test mode — not applicable: ${d.label} has no test flag (its sandbox is another account)`, () => {})
    else
      test('test mode: the sale and its commission are test data', async () => {
        const { f, post, list } = await setup(d)
        await post(d.payment(await firstPayment(f, { testMode: true })))
        const [sale] = await list('sales')
        expect(sale).toMatchObject({ test_mode: true, livemode: false })
        expect((await list('commissions'))[0]).toMatchObject({ test_mode: true })
      })

    test('unknown event: 200, kept as ignored with its reason', async () => {
      const { post, list } = await setup(d)
      expect((await post(d.unknown())).status).toBe(200)
      const [event] = await list('events')
      expect(event).toMatchObject({ outcome: 'ignored' })
      expect(event!.detail).toMatch(/^Event type \S+ is not used: only .+ (are read|attribute)$/)
    })

    test('a currency the program does not list: 200, kept as ignored with that reason, no sale', async () => {
      const { f, post, list } = await setup(d)
      expect((await post(d.payment(await firstPayment(f, { currency: 'GBP' })))).status).toBe(200)
      const [event] = await list('events')
      expect(event).toMatchObject({ outcome: 'ignored', detail: 'Currency GBP is not supported (USD, EUR, VND): no sale recorded' })
      expect(await list('sales')).toEqual([])
    })

    test('a body that is not the processor’s shape: 400, nothing recorded', async () => {
      const { post, list } = await setup(d)
      const reply = await post({ body: JSON.stringify({ hello: 'world' }) })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toStartWith(`Body is not a ${d.label} event`)
      expect(await list('events')).toEqual([])
    })

    if (d.sdkAccepts === null) test.skip(`official SDK check — not applicable: ${d.label} has no SDK that verifies webhooks`, () => {})
    else
      test(`the official SDK accepts this test's signing, and refuses a wrong secret`, async () => {
        const body = d.payment({ customer: '1', net: 100, tax: 0, currency: 'USD', clickId: 'c' }).body
        const seconds = Math.floor(Date.now() / 1000)
        const headers = await d.sign(body, 'sdk-secret', seconds, unique('msg'))
        expect(await d.sdkAccepts!(body, headers, 'sdk-secret')).toBe(true)
        expect(await d.sdkAccepts!(body, headers, 'another-secret')).toBe(false)
      })
  })
}
