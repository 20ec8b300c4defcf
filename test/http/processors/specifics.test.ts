import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { publicOrigin, signInAccount } from '../pages/sessions.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'
import { lemonsqueezy, paddle, polar, stripe, type Driver, type Sent } from './drivers.ts'

// What one processor does that the contract (contract.test.ts) has no case for: docs/decisions.md,
// Selling anywhere, processor by processor.
let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

async function setup(d: Driver, fields: Record<string, unknown> = {}, secret = d.secret()) {
  const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, livemode: null, ...fields })
  await api.admin('PATCH', `/programs/${f.programId}`, { [d.secretField]: secret })
  const post = async (sent: Sent | string) => {
    const body = typeof sent === 'string' ? sent : sent.body
    const headers = await d.sign(body, secret, Math.floor(api.clock.now() / 1000), unique('msg'))
    return api.call('POST', `/api/v1/webhooks/${d.name}/${f.programId}`, { body, headers })
  }
  const list = async (what: string) => (await api.admin('GET', `/programs/${f.programId}/${what}`)).body.data as Record<string, any>[]
  return { f, post, list }
}

describe('Paddle', () => {
  test('an adjustment waiting for approval, or a credit, reverses nothing; the approved one does', async () => {
    const { f, post, list } = await setup(paddle)
    const p = { customer: unique('ctm'), clickId: await k.clickId(f), net: 4500, tax: 500, currency: 'USD' }
    const sale = paddle.payment(p)
    await post(sale)
    const pending = JSON.parse(paddle.refund(sale, p).body)
    pending.data.status = 'pending_approval'
    await post(JSON.stringify(pending))
    const credit = JSON.parse(paddle.refund(sale, p).body)
    credit.data.action = 'credit'
    await post(JSON.stringify(credit))
    expect((await list('sales'))[0]).toMatchObject({ status: 'recorded' })
    const details = (await list('events')).map((e) => e.detail)
    expect(details).toContain('Adjustment refund is pending_approval: only an approved one reverses the sale')
    expect(details).toContain('Adjustment action credit: only refund and chargeback reverse a sale')
    await post(paddle.refund(sale, p))
    expect((await list('sales'))[0]).toMatchObject({ status: 'refunded' })
  })

  test('a signature made more than 5 minutes ahead is refused, nothing recorded (one made now passes)', async () => {
    const { f, list } = await setup(paddle)
    const secret = paddle.secret()
    await api.admin('PATCH', `/programs/${f.programId}`, { [paddle.secretField]: secret })
    const { body } = paddle.payment({ customer: 'ctm_ahead', clickId: await k.clickId(f), net: 4500, tax: 0, currency: 'USD' })
    const ahead = await paddle.sign(body, secret, Math.floor(api.clock.now() / 1000) + 301, unique('msg'))
    const refused = await api.call('POST', `/api/v1/webhooks/paddle/${f.programId}`, { body, headers: ahead })
    expect(refused.status).toBe(400)
    expect(await list('events')).toHaveLength(0)
    const now = await paddle.sign(body, secret, Math.floor(api.clock.now() / 1000) + 60, unique('msg'))
    expect((await api.call('POST', `/api/v1/webhooks/paddle/${f.programId}`, { body, headers: now })).status).toBe(200)
  })

  test("custom data past /track's limits (a 300-character svc_customer_key) is kept as ignored with its reason, no sale", async () => {
    const { post, list } = await setup(paddle)
    const long = 'k'.repeat(300)
    expect((await post(paddle.payment({ customer: 'ctm_long', customerKey: long, net: 4500, tax: 0, currency: 'USD' }))).status).toBe(200)
    const [event] = await list('events')
    expect(event).toMatchObject({ outcome: 'ignored', detail: 'svc_customer_key is longer than 255 characters: not recorded' })
    expect(await list('sales')).toHaveLength(0)
  })

  test('JPY amounts are whole yen (ISO exponent 0) and show as such', async () => {
    const { f, post, list } = await setup(paddle, { currencies: ['JPY'] })
    await post(paddle.payment({ customer: unique('ctm'), clickId: await k.clickId(f), net: 9800, tax: 980, currency: 'JPY' }))
    expect((await list('sales'))[0]).toMatchObject({ amount_cents: 9800, currency: 'JPY' })
  })
})

describe('Lemon Squeezy', () => {
  test("a subscription's first invoice (billing_reason initial) is ignored with its reason: the order counts", async () => {
    const { f, post, list } = await setup(lemonsqueezy)
    const p = { customer: '4242', clickId: await k.clickId(f), net: 4500, tax: 500, currency: 'USD' }
    await post(lemonsqueezy.payment(p))
    const initial = JSON.parse(lemonsqueezy.payment({ ...p, renewal: true }).body)
    initial.data.attributes.billing_reason = 'initial'
    await post(JSON.stringify(initial))
    expect(await list('sales')).toHaveLength(1)
    expect((await list('events')).map((e) => e.detail)).toContainEqual(
      `Subscription invoice ${initial.data.id} is the first payment (billing_reason initial): its order_created event counts`,
    )
  })

  test('a test-mode event for a live program is ignored with the mismatch', async () => {
    const { f, post, list } = await setup(lemonsqueezy, { livemode: true })
    await post(lemonsqueezy.payment({ customer: '5', clickId: await k.clickId(f), net: 4500, tax: 0, currency: 'USD', testMode: true }))
    expect(await list('sales')).toEqual([])
    expect((await list('events'))[0]!.detail).toStartWith('Livemode mismatch')
  })

  test('a replay is recognised by its sale: a resent order records nothing more', async () => {
    const { f, post, list } = await setup(lemonsqueezy)
    const sale = lemonsqueezy.payment({ customer: '6', clickId: await k.clickId(f), net: 4500, tax: 0, currency: 'USD' })
    await post(sale)
    // Re-serialised with other spacing: another body, the same order.
    await post(JSON.stringify(JSON.parse(sale.body), null, 2))
    expect(await list('sales')).toHaveLength(1)
  })

  test("another program's signed copy of an order (a guessable counting id) neither hides this program's event nor takes its sale quietly", async () => {
    const victim = await setup(lemonsqueezy)
    const attacker = await setup(lemonsqueezy)
    const victimClick = await k.clickId(victim.f)
    const order = lemonsqueezy.payment({ customer: '7', clickId: victimClick, net: 4500, tax: 0, currency: 'USD' })
    // The attacker signs the victim's next order id with its own secret, on its own route, first, with
    // a click of its own program: the event id and the sale's transaction id are the victim's.
    expect((await attacker.post(order.body.replace(victimClick, await k.clickId(attacker.f)))).status).toBe(200)
    expect((await attacker.list('sales')).map((sale) => sale.transaction_id)).toEqual([order.transactionId])
    expect((await victim.post(order)).status).toBe(200)
    // The victim's event is its own (not a replay of the other program's): kept, with what happened to its sale.
    const [event] = await victim.list('events')
    expect(event).toMatchObject({ outcome: 'ignored' })
    expect(event!.detail).toBe(
      `Another program of this server holds transaction_id ${order.transactionId} (transaction ids are unique across the server): not recorded here`,
    )
    expect(event!.sale_id ?? null).toBeNull()
  })
})

describe('Polar', () => {
  test('customer.external_id is the customer key; the HMAC is keyed by the whsec_ secret’s own bytes', async () => {
    const secret = `whsec_${Buffer.from('polar-raw-key').toString('base64')}`
    const { f, post, list } = await setup(polar, {}, secret)
    const key = unique('user')
    await k.customer(f, key)
    const order = JSON.parse(polar.payment({ customer: crypto.randomUUID(), net: 2000, tax: 0, currency: 'EUR' }).body)
    order.data.customer.external_id = key
    expect((await post(JSON.stringify(order))).status).toBe(200)
    expect((await list('sales'))[0]).toMatchObject({ amount_cents: 2000, currency: 'EUR' })
    expect((await list('customers')).map((c) => c.customer_key)).toEqual([key])
  })

  test("a secret whose rest is base64 without its padding also stands for its decoded bytes, as the SDK's atob decodes it", async () => {
    const secret = 'whsec_polarsecret123'
    const { f, list } = await setup(polar, {}, secret)
    const { body } = polar.payment({ customer: crypto.randomUUID(), clickId: await k.clickId(f), net: 1500, tax: 0, currency: 'EUR' })
    const id = unique('msg')
    const ts = Math.floor(api.clock.now() / 1000)
    const decoded = Uint8Array.from(atob('polarsecret123'), (c) => c.charCodeAt(0))
    const signature = createHmac('sha256', decoded).update(`${id}.${ts}.${body}`).digest('base64')
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${signature}` }
    expect((await api.call('POST', `/api/v1/webhooks/polar/${f.programId}`, { body, headers })).status).toBe(200)
    expect(await list('sales')).toHaveLength(1)
  })

  test('the net amount, not the total: tax is never commissioned', async () => {
    const { f, post, list } = await setup(polar)
    await post(polar.payment({ customer: crypto.randomUUID(), clickId: await k.clickId(f), net: 1000, tax: 210, currency: 'EUR' }))
    expect((await list('commissions'))[0]).toMatchObject({ amount_cents: 100, currency: 'EUR' })
  })
})

describe("Stripe's edge", () => {
  test('MGA (zero-decimal at Stripe, two digits in ISO 4217) is stored in ISO minor units', async () => {
    const { f, post, list } = await setup(stripe, { currencies: ['MGA'] })
    await post(stripe.payment({ customer: 'cus_mga', clickId: await k.clickId(f), net: 5000, tax: 0, currency: 'MGA' }))
    expect((await list('sales'))[0]).toMatchObject({ amount_cents: 500_000, currency: 'MGA' })
  })
})

describe('Settings', () => {
  test('the Processors panel shows each webhook URL and saves a write-only secret the route then verifies with', async () => {
    const f = await api.setupProgram()
    const cookie = await signInAccount(api, f.accountId)
    const get = await fetch(`${api.url}/dashboard/programs/${f.programId}/settings`, { headers: { cookie } }).then((r) => r.text())
    for (const name of ['paddle', 'lemonsqueezy', 'polar']) expect(get).toContain(`/api/v1/webhooks/${name}/${f.programId}`)
    const csrf = get.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const save = (form: Record<string, string>) =>
      fetch(`${api.url}/dashboard/programs/${f.programId}/settings/processor`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: publicOrigin(api) },
        body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
      })
    expect((await save({ processor: 'stripe', secret: 'x' })).headers.get('location')).toContain('processor_invalid')
    expect((await save({ processor: 'paddle', secret: 'has space' })).headers.get('location')).toContain('processor_invalid')
    const secret = paddle.secret()
    expect((await save({ processor: 'paddle', secret })).headers.get('location')).toContain('processor_saved')
    const shown = (await api.admin('GET', `/programs/${f.programId}`)).body.data[0]
    expect(shown.paddle_webhook_secret).toBe('••••••••••••')
    expect(JSON.stringify(shown)).not.toContain(secret)
    const after = await fetch(`${api.url}/dashboard/programs/${f.programId}/settings`, { headers: { cookie } }).then((r) => r.text())
    expect(after).not.toContain(secret)
    const body = paddle.payment({ customer: 'ctm_settings', clickId: await k.clickId(f), net: 100, tax: 0, currency: 'USD' }).body
    const headers = await paddle.sign(body, secret, Math.floor(api.clock.now() / 1000), 'x')
    expect((await api.call('POST', `/api/v1/webhooks/paddle/${f.programId}`, { body, headers })).status).toBe(200)
  })
})

describe('Stripe invoices without keys', () => {
  test('pay as the program’s stripe:<cus_…> customer when it has one; otherwise stay ignored with their reason', async () => {
    const { f, post, list } = await setup(stripe)
    // A customer keyed by its Stripe customer (as an import or a promotion-code sale keys it).
    const customer = `cus_${unique('known')}`
    await k.customer(f, `stripe:${customer}`)
    const known = JSON.parse(stripe.payment({ customer, net: 2900, tax: 0, currency: 'EUR', renewal: true }).body)
    known.data.object.parent.subscription_details.metadata = {}
    expect((await post(JSON.stringify(known))).status).toBe(200)
    const [sale] = await list('sales')
    expect(sale).toMatchObject({ amount_cents: 2900, transaction_id: known.data.object.id })
    expect((await list('commissions'))[0]).toMatchObject({ partner_id: f.partnerId, amount_cents: 290 })
    const stranger = JSON.parse(stripe.payment({ customer: 'cus_stranger', net: 2900, tax: 0, currency: 'EUR', renewal: true }).body)
    stranger.data.object.parent.subscription_details.metadata = {}
    await post(JSON.stringify(stranger))
    expect(await list('sales')).toHaveLength(1)
    expect((await list('events')).map((e) => e.detail)).toContain(
      'Renewal without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed',
    )
  })
})
