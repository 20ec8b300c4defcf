// Coupons (docs/decisions.md, Attribution without the cookie, and consent): the operator routes,
// attribution by coupon_code on /track/sale, the first attribution standing, and Stripe
// promotion codes on checkout sessions and invoices (events signed like the other Stripe tests).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, expectFailure, type Fixture } from '../../helpers.ts'
import { scenario } from '../webhooks/fixtures.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const addCoupon = (f: Fixture, body: unknown, partnerId = f.partnerId) =>
  api.admin('POST', `/programs/${f.programId}/partners/${partnerId}/coupons`, body)

describe('the operator routes', () => {
  test('add (201 coupon_id, code), list, delete; a code taken in any case is 409; bad fields 400; unknown partner 404', async () => {
    const f = await api.setupProgram()
    const created = await addCoupon(f, { code: 'Ada10', stripe_promotion_code: 'promo_1AbC' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ data: { coupon_id: expect.any(Number), code: 'Ada10' }, error: null })
    expectFailure(await addCoupon(f, { code: 'ADA10' }), 409, 'This coupon code is taken in this program (codes are compared without case)')
    // Another program may use the same code.
    const other = await api.setupProgram()
    expect((await addCoupon(other, { code: 'ada10' })).status).toBe(201)

    const listed = await api.admin('GET', `/programs/${f.programId}/coupons`)
    expect(listed.status).toBe(200)
    expect(listed.body.data).toEqual([
      {
        coupon_id: created.body.data.coupon_id,
        program_id: f.programId,
        partner_id: f.partnerId,
        code: 'Ada10',
        stripe_promotion_code: 'promo_1AbC',
        created_at: expect.any(String),
        // An imported coupon names its tool and id (docs/imports.md).
        source: null,
        source_id: null,
      },
    ])

    for (const code of ['', 'has space', 'x'.repeat(65), 12, 'semi;colon'])
      expectFailure(await addCoupon(f, { code }), 400, 'code must be 1 to 64 characters: letters, digits, - and _')
    expectFailure(
      await addCoupon(f, { code: 'FINE', stripe_promotion_code: 'co_123' }),
      400,
      'stripe_promotion_code must be a Stripe promotion code id (promo_…) of at most 255 characters',
    )
    expectFailure(await addCoupon(f, { code: 'NOBODY' }, other.partnerId), 404, 'Partner not found')
    expectFailure(await api.admin('POST', `/programs/999999/partners/${f.partnerId}/coupons`, { code: 'X' }), 404, 'Program not found')

    const removed = await api.admin('DELETE', `/coupons/${created.body.data.coupon_id}`)
    expect(removed.body).toEqual({ data: { coupon_id: created.body.data.coupon_id, deleted: true }, error: null })
    expectFailure(await api.admin('DELETE', `/coupons/${created.body.data.coupon_id}`), 404, 'Coupon not found')
    expect((await api.admin('GET', `/programs/${f.programId}/coupons`)).body.data).toEqual([])
  })
})

describe('attribution by coupon_code', () => {
  test("a new customer's sale naming a coupon (any case) pays the coupon's partner; the record says source coupon and the code", async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    await addCoupon(f, { code: 'PodCast20' })
    const customerKey = unique('listener')
    const sale = await k.sale(f, {
      transaction_id: unique('txn'),
      customer_key: customerKey,
      amount_cents: 10_000,
      coupon_code: 'podcast20',
    })
    expect(sale.status).toBe(200)
    expect(sale.body.data.commission).toMatchObject({ partner_id: f.partnerId, amount_cents: 1000 })
    const detail = await api.admin('GET', `/sales/${sale.body.data.sale_id}`)
    expect(detail.body.data[0].attribution).toMatchObject({
      rule: 'coupon',
      source: 'coupon',
      coupon_code: 'PodCast20',
      partner_id: f.partnerId,
    })
    // The customer now belongs to the partner: a later sale by customer_key alone is theirs (a first sale no longer).
    const again = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, amount_cents: 10_000 })
    expect(again.status).toBe(200)
    expect(again.body.data.commission).toBeNull()
  })

  test("first attribution stands: a clicked customer's sale naming another partner's coupon stays with the first, and records the code", async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    const bob = await k.partnerLink(f, unique('bob'))
    await addCoupon(f, { code: 'BOB5' }, bob.partnerId)
    const customerKey = unique('buyer')
    await k.customer(f, customerKey)
    const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, amount_cents: 5000, coupon_code: 'bob5' })
    expect(sale.body.data.commission.partner_id).toBe(f.partnerId)
    const detail = await api.admin('GET', `/sales/${sale.body.data.sale_id}`)
    expect(detail.body.data[0].attribution).toMatchObject({ rule: 'first_click', source: 'lead', coupon_code: 'BOB5' })
  })

  test("an unknown or deleted code is ignored; a suspended partner's coupon attributes nobody", async () => {
    const f = await api.setupProgram()
    const unknown = await k.sale(f, { transaction_id: unique('txn'), customer_key: unique('c'), coupon_code: 'NOPE' })
    expectFailure(unknown, 400, 'Customer not found. Provide customer_key or click_id.')
    const made = await addCoupon(f, { code: 'GONE' })
    await api.admin('DELETE', `/coupons/${made.body.data.coupon_id}`)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: unique('c'), coupon_code: 'GONE' })).status).toBe(400)
    await addCoupon(f, { code: 'PAUSED' })
    await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/suspend`)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: unique('c'), coupon_code: 'PAUSED' })).status).toBe(400)
  })

  test('a test-mode sale with a coupon gives a live customer without a partner no partner: later live sales stay unattributed', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    await addCoupon(f, { code: 'TRY' })
    // A live customer with no partner, as a database may hold one.
    const customerKey = unique('live')
    api.server.deps.database.client
      .prepare("INSERT INTO customers (program_id, customer_key, status, test_mode, created_at) VALUES (?, ?, 'lead', 0, ?)")
      .run(f.programId, customerKey, api.clock.now())
    const test = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, coupon_code: 'TRY', livemode: false })
    expect(test.status).toBe(200)
    const live = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, amount_cents: 5000 })
    expect(live.status).toBe(400)
    expect(live.body.error.message).toBe('partnerId required to create commission')
  })

  test('coupon_code of another type or longer than 64 characters is 400 invalid_request', async () => {
    const f = await api.setupProgram()
    for (const coupon_code of [12, 'x'.repeat(65)]) {
      const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: unique('c'), coupon_code })
      expect(reply.status).toBe(400)
      expect(reply.body.error).toMatchObject({ code: 'invalid_request', message: 'coupon_code must be a string of at most 64 characters' })
    }
  })
})

describe('Stripe promotion codes', () => {
  const { stripeProgram, checkout, paidInvoice } = scenario(() => api)

  test('a checkout with no referral keys whose discount names the coupon’s promotion code attributes its partner', async () => {
    const { f, send, list, outcomeOf } = await stripeProgram({ commission_type: 'percent', commission_rate: 10 })
    await addCoupon(f, { code: 'VIDEO', stripe_promotion_code: 'promo_VID1' })
    const { event } = checkout(f, {}, { metadata: {}, amount_total: 20_000, discounts: [{ coupon: null, promotion_code: 'promo_VID1' }] })
    await send(event)
    expect(await outcomeOf(event)).toMatchObject({ outcome: 'attributed' })
    const [commission] = await list('commissions')
    expect(commission).toMatchObject({ partner_id: f.partnerId, amount_cents: 2000 })
    const [sale] = await list('sales')
    expect(sale!.attribution).toMatchObject({ source: 'coupon', coupon_code: 'VIDEO' })
  })

  test("an invoice's discount carrying the promotion code attributes a subscription without referral metadata", async () => {
    const { f, send, list } = await stripeProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    await addCoupon(f, { code: 'INSTA', stripe_promotion_code: 'promo_INS1' })
    const { invoice } = paidInvoice({}, 'subscription_create', { subscription: unique('sub') })
    const withDiscount = { ...invoice, discounts: [{ id: 'di_1', object: 'discount', promotion_code: 'promo_INS1' }] }
    await send({ ...paidInvoice({}, 'subscription_create').event, data: { object: withDiscount as never } })
    const [commission] = await list('commissions')
    expect(commission).toMatchObject({ partner_id: f.partnerId, amount_cents: 290, currency: 'EUR' })
  })

  test('a renewal carrying the same promotion code finds the customer it made (keyed stripe:cus_…): recurring, never a first sale again', async () => {
    const { f, send, list } = await stripeProgram({ commission_type: 'percent', commission_rate: 10 })
    await addCoupon(f, { code: 'ONCE', stripe_promotion_code: 'promo_ONCE' })
    const discounts = [
      { coupon: null, promotion_code: 'promo_OTHER' },
      { coupon: null, promotion_code: 'promo_ONCE' },
    ]
    const first = checkout(f, {}, { metadata: {}, customer: 'cus_repeat', amount_total: 10_000, discounts })
    await send(first.event)
    const second = checkout(f, {}, { metadata: {}, customer: 'cus_repeat', amount_total: 10_000, discounts })
    await send(second.event)
    const commissions = await list('commissions')
    // percent pays the customer's first sale only: one commission for the two payments.
    expect(commissions.map((c) => c.amount_cents)).toEqual([1000])
    const customers = await list('customers')
    expect(customers.map((c) => c.customer_key)).toEqual(['stripe:cus_repeat'])
  })

  test('a promotion code no coupon carries changes nothing: the event is recorded as not attributed', async () => {
    const { f, send, outcomeOf, list } = await stripeProgram()
    const { event } = checkout(f, {}, { metadata: {}, discounts: [{ coupon: null, promotion_code: 'promo_NONE' }] })
    await send(event)
    expect((await outcomeOf(event)).outcome).not.toBe('attributed')
    expect(await list('sales')).toEqual([])
  })
})
