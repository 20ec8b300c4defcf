import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DAY, type Api } from '../../helpers.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'
import { event, referralMetadata, scenario, subscriptionInvoice } from './fixtures.ts'

// What Stripe events record, over real HTTP: sales through the /track/sale path, commissions by
// commission type, and the outcome an owner reads for each event (provisional leads: -leads.test.ts).
let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const { seconds, stripeProgram, checkout, paidInvoice } = scenario(() => api)

describe('checkout.session.completed', () => {
  test('a one-off payment records the sale under its payment_intent and pays the partner', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { session, event: e } = checkout(f, { customerKey }, { amount_total: 12_345, currency: 'eur' })
    await send(e)
    const [sale] = await list('sales')
    expect(sale).toMatchObject({
      transaction_id: session.payment_intent,
      amount_cents: 12_345,
      currency: 'EUR',
      provider: 'stripe',
      provider_payment_id: session.id,
      livemode: true,
      test_mode: false,
    })
    expect((await list('commissions')).map((c) => c.amount_cents)).toEqual([1235])
    expect((await list('customers'))[0]).toMatchObject({ customer_key: customerKey, status: 'converted' })
    expect(await outcomeOf(e)).toMatchObject({ outcome: 'attributed', sale_id: sale.sale_id })
    expect((await outcomeOf(e)).detail).toContain(`commission EUR 12.35 to partner ${f.partnerId}`)
  })

  test('a test-mode event (livemode: false) records test data: listed, counted under test, its commission never live', async () => {
    const { f, send, list } = await stripeProgram({ livemode: null })
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { event: e } = checkout(f, { customerKey }, { amount_total: 9900, currency: 'eur', livemode: false })
    expect(e.livemode).toBe(false)
    await send(e)
    const [sale] = await list('sales')
    expect(sale).toMatchObject({ livemode: false, test_mode: true })
    const [commission] = await list('commissions')
    expect(commission).toMatchObject({ sale_id: sale.sale_id, test_mode: true })
    const counts = (await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })).body.data.counts
    expect([counts.live.sales, counts.test.sales]).toEqual([0, 1])
    // A test payment does not convert the live customer: its first live payment still pays.
    expect((await list('customers'))[0]).toMatchObject({ customer_key: customerKey, status: 'lead' })
  })

  test('a later manual /track/sale for the same payment answers 409 with the sale id', async () => {
    const { f, send, list } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { session, event: e } = checkout(f, { customerKey })
    await send(e)
    const [sale] = await list('sales')
    const manual = await k.sale(f, { transaction_id: session.payment_intent, customer_key: customerKey })
    expect(manual.status).toBe(409)
    expect(manual.body.error).toMatchObject({ code: 'duplicate_transaction', details: { sale_id: sale.sale_id } })
  })

  test('a payment already sent by /track/sale is not counted twice; the event says so', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { session, event: e } = checkout(f, { customerKey })
    expect((await k.sale(f, { transaction_id: session.payment_intent, customer_key: customerKey })).status).toBe(200)
    await send(e)
    expect(await list('sales')).toHaveLength(1)
    expect(await outcomeOf(e)).toMatchObject({
      outcome: 'ignored',
      sale_id: (await list('sales'))[0].sale_id,
      detail: `A sale is already recorded under transaction_id ${session.payment_intent}: not counted twice`,
    })
  })

  test('a visitor who clicked and paid without a signup is attributed through svc_click_id', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const clickId = await k.clickId(f)
    const { event: e } = checkout(f, { clickId, customerKey: unique('user') })
    await send(e)
    expect((await outcomeOf(e)).outcome).toBe('attributed')
    expect((await list('customers'))[0]).toMatchObject({ click_id: clickId, status: 'converted' })
  })

  test('without referral metadata nothing is recorded, and the stored outcome says why', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const { event: e } = checkout(f, {})
    await send(e)
    expect(await list('sales')).toEqual([])
    expect(await outcomeOf(e)).toMatchObject({
      outcome: 'ignored',
      detail: 'No svc_click_id or svc_customer_key in the checkout session metadata: not attributed',
    })
  })

  test('a subscription checkout is left to its invoice event', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { event: e } = checkout(f, { customerKey }, { mode: 'subscription', payment_intent: null, subscription: 'sub_x' })
    await send(e)
    expect(await list('sales')).toEqual([])
    expect((await outcomeOf(e)).detail).toBe('Subscription checkout: its invoice.payment_succeeded event attributes the payment')
  })
})

describe('invoice.payment_succeeded', () => {
  test.each([
    ['percent', 1, [290]],
    ['recurring_percent', 3, [290, 290, 290]],
  ])('subscription create and two renewals under %s: three sales, %p commission(s)', async (type, _n, cents) => {
    const { f, send, list, outcomeOf } = await stripeProgram({ commission_type: type })
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const metadata = referralMetadata(f.programId, { customerKey })
    const sent: ReturnType<typeof paidInvoice>[] = []
    // Monthly: each invoice is paid, and delivered, a month after the previous one.
    for (const reason of ['subscription_create', 'subscription_cycle', 'subscription_cycle'] as const) {
      if (sent.length) api.clock.advance(30 * DAY)
      sent.push(paidInvoice(metadata, reason))
      await send(sent[sent.length - 1].event)
    }
    expect((await list('sales')).map((s) => s.transaction_id).sort()).toEqual(sent.map((s) => s.invoice.id).sort())
    expect((await list('commissions')).map((c) => c.amount_cents)).toEqual(cents)
    for (const { event: e } of sent) expect((await outcomeOf(e)).outcome).toBe('attributed')
    if (type === 'percent')
      expect((await outcomeOf(sent[2].event)).detail).toContain(
        'no commission: the non-recurring commission type pays on the first sale only',
      )
  })

  test('a renewal delivered before the creation still attributes; nothing is lost or doubled', async () => {
    const { f, send, list } = await stripeProgram({ commission_type: 'recurring_fixed', commission_rate: 5 })
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const metadata = referralMetadata(f.programId, { customerKey })
    const create = paidInvoice(metadata, 'subscription_create')
    const renewal = paidInvoice(metadata, 'subscription_cycle')
    for (const e of [renewal.event, create.event, renewal.event, create.event]) await send(e)
    expect(await list('sales')).toHaveLength(2)
    expect((await list('commissions')).map((c) => c.amount_cents)).toEqual([500, 500])
  })

  test('under a non-recurring type the first recorded payment pays, even a renewal that overtook the creation', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram({ commission_type: 'fixed', commission_rate: 5 })
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const metadata = referralMetadata(f.programId, { customerKey })
    const create = paidInvoice(metadata, 'subscription_create')
    const renewal = paidInvoice(metadata, 'subscription_cycle')
    await send(renewal.event)
    await send(create.event)
    expect((await list('commissions')).map((c) => [c.sale_id, c.amount_cents])).toEqual([[(await outcomeOf(renewal.event)).sale_id, 500]])
    expect((await outcomeOf(create.event)).detail).toContain('no commission')
  })

  test('an event whose payment time lies outside the sale bounds (a fixture replayed by hand) is recorded at its arrival', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { event: e } = paidInvoice(referralMetadata(f.programId, { customerKey }), 'subscription_cycle')
    api.clock.advance(31 * DAY)
    await send(e)
    const sales = await list('sales')
    expect(sales).toHaveLength(1)
    expect(Date.parse(sales[0].occurred_at)).toBe(api.clock.now())
    expect(await outcomeOf(e)).toMatchObject({ outcome: 'attributed' })
  })

  test('a renewal without the keys in the subscription metadata does not attribute, and says so', async () => {
    const { send, list, outcomeOf } = await stripeProgram()
    const { event: e } = paidInvoice({}, 'subscription_cycle')
    await send(e)
    expect(await list('sales')).toEqual([])
    expect(await outcomeOf(e)).toMatchObject({
      outcome: 'ignored',
      detail: 'Renewal without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed',
    })
  })

  test('the older top-level subscription_details shape attributes too', async () => {
    const { f, send, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const { event: e } = paidInvoice(referralMetadata(f.programId, { customerKey }), 'subscription_create', { older: true })
    await send(e)
    expect((await outcomeOf(e)).outcome).toBe('attributed')
  })

  test('an unsupported currency records no sale and says so', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const invoice = subscriptionInvoice({
      created: seconds(),
      subscription: 'sub_gbp',
      metadata: referralMetadata(f.programId, { customerKey }),
      currency: 'gbp',
    })
    const e = event('invoice.payment_succeeded', invoice, { created: seconds(), livemode: true })
    await send(e)
    expect(await list('sales')).toEqual([])
    expect((await outcomeOf(e)).detail).toBe('Currency GBP is not supported (USD, EUR, VND): no sale recorded')
  })
})
