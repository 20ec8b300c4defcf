import { describe, expect, test } from 'bun:test'
import { promotionCodesOf, readEnvelope, readEvent, type StripeEnvelope } from '../../src/domain/stripe-event.ts'
import { checkoutSession, event, referralMetadata, subscriptionInvoice } from '../http/webhooks/fixtures.ts'

const created = 1_780_000_000
const program = { id: 7, livemode: false }
const keys = referralMetadata(7, { clickId: 'clk_1', customerKey: 'user_1' })

const envelopeOf = (e: unknown): StripeEnvelope => {
  const envelope = readEnvelope(JSON.parse(JSON.stringify(e)))
  if (!envelope) throw new Error('not an event')
  return envelope
}
const checkout = (fields: Parameters<typeof checkoutSession>[0], options: { livemode?: boolean } = {}) =>
  envelopeOf(
    event('checkout.session.completed', checkoutSession({ ...fields, livemode: options.livemode ?? false }), { created, ...options }),
  )
const invoice = (options: Omit<Parameters<typeof subscriptionInvoice>[0], 'created' | 'subscription'>) =>
  envelopeOf(event('invoice.payment_succeeded', subscriptionInvoice({ created, subscription: 'sub_1', ...options }), { created }))

describe('readEnvelope', () => {
  test.each([
    ['not an object', 'text'],
    ['no id', { type: 'x', data: { object: {} } }],
    ['no type', { id: 'evt_1', data: { object: {} } }],
    ['no data.object', { id: 'evt_1', type: 'x', data: {} }],
  ])('refuses a body with %s', (_name, body) => {
    expect(readEnvelope(body)).toBeNull()
  })

  test('reads id, type, livemode, account and created (ms)', () => {
    const e = envelopeOf(event('checkout.session.completed', checkoutSession({ created }), { created, account: 'acct_1', livemode: true }))
    expect(e).toMatchObject({ type: 'checkout.session.completed', livemode: true, account: 'acct_1', createdAt: created * 1000 })
  })
})

describe('checkout.session.completed', () => {
  test('a one-off payment carries its payment_intent as transaction, its amount and upper-cased currency', () => {
    const e = checkout({ created, metadata: keys, amount_total: 4900, currency: 'eur', payment_intent: 'pi_123', id: 'cs_1' })
    expect(readEvent(e, program)).toEqual({
      kind: 'payment',
      payment: {
        transactionId: 'pi_123',
        providerPaymentId: 'cs_1',
        amountCents: 4900,
        currency: 'EUR',
        occurredAt: created * 1000,
        billingReason: null,
        keys: { clickId: 'clk_1', customerKey: 'user_1', programId: '7' },
        promotionCodes: [],
        stripeCustomer: expect.stringMatching(/^cus/),
        customerEmail: 'buyer@shop.test',
        noSale: null,
        unknownCustomer: null,
      },
    })
  })

  test('the payer’s email, from customer_details or customer_email, is kept for the fraud rules', () => {
    const details = checkout({ created, metadata: keys, amount_total: 100, customer_details: { email: 'buyer@mailinator.com' } } as never)
    expect((readEvent(details, program) as { payment: { customerEmail: string } }).payment.customerEmail).toBe('buyer@mailinator.com')
    const plain = checkout({ created, metadata: keys, amount_total: 100, customer_email: 'b@shop.test' } as never)
    expect((readEvent(plain, program) as { payment: { customerEmail: string } }).payment.customerEmail).toBe('b@shop.test')
  })

  test.each([
    [
      'a subscription checkout',
      { mode: 'subscription' as const, metadata: keys },
      'Subscription checkout: its invoice.payment_succeeded event attributes the payment',
    ],
    ['a setup checkout', { mode: 'setup' as const, metadata: keys }, 'Checkout mode setup: no one-off payment to attribute'],
    [
      'no referral keys',
      { metadata: { program_id: '7' } },
      'No svc_click_id or svc_customer_key in the checkout session metadata: not attributed',
    ],
    ['null metadata', { metadata: null }, 'No svc_click_id or svc_customer_key in the checkout session metadata: not attributed'],
    [
      'another program_id',
      { metadata: referralMetadata(8, { customerKey: 'u' }) },
      'Metadata program_id 8 names another program than this one (7)',
    ],
  ])('ignores %s and says why', (_name, fields, detail) => {
    expect(readEvent(checkout({ created, ...fields }), program)).toEqual({ kind: 'ignored', detail })
  })

  test('an unpaid (delayed) or free checkout still names the customer but records no sale', () => {
    const unpaid = readEvent(checkout({ created, metadata: keys, payment_status: 'unpaid' }), program)
    expect(unpaid).toMatchObject({ kind: 'payment', payment: { noSale: 'Checkout payment_status unpaid: no sale recorded' } })
    const free = readEvent(checkout({ created, metadata: keys, amount_total: 0, payment_status: 'no_payment_required' }), program)
    expect(free).toMatchObject({ kind: 'payment', payment: { noSale: 'Checkout payment_status no_payment_required: no sale recorded' } })
  })

  test('one key is enough; a missing program_id is not a mismatch', () => {
    const e = checkout({ created, metadata: { svc_customer_key: ' user_9 ' } })
    expect(readEvent(e, program)).toMatchObject({
      kind: 'payment',
      payment: { keys: { clickId: null, customerKey: 'user_9', programId: null } },
    })
  })
})

describe('invoice.payment_succeeded', () => {
  test.each([
    ['the current parent.subscription_details', false],
    ['the older top-level subscription_details', true],
  ])('reads the subscription keys from %s', (_name, older) => {
    const e = invoice({ metadata: keys, older, amountPaid: 2900, currency: 'usd', billingReason: 'subscription_cycle' })
    const reading = readEvent(e, program)
    expect(reading).toMatchObject({
      kind: 'payment',
      payment: {
        amountCents: 2900,
        currency: 'USD',
        billingReason: 'subscription_cycle',
        occurredAt: created * 1000,
        keys: { customerKey: 'user_1' },
      },
    })
    if (reading.kind === 'payment') expect(reading.payment.transactionId).toBe(reading.payment.providerPaymentId)
    expect(reading.kind === 'payment' && reading.payment.transactionId.startsWith('in_')).toBe(true)
  })

  test.each([
    [
      'a renewal',
      'subscription_cycle' as const,
      'Renewal without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed',
    ],
    [
      'a first payment',
      'subscription_create' as const,
      'First subscription payment without svc_click_id or svc_customer_key in the subscription metadata (subscription_data.metadata): not attributed',
    ],
  ])('%s without keys is the payment of its stripe:<cus_…> customer, or ignored with this reason', (_name, billingReason, detail) => {
    expect(readEvent(invoice({ metadata: {}, billingReason }), program)).toMatchObject({
      kind: 'payment',
      payment: { keys: { clickId: null, customerKey: null }, stripeCustomer: 'cus_subscriber', unknownCustomer: detail },
    })
    const anonymous = invoice({ metadata: {}, billingReason })
    anonymous.object.customer = null
    expect(readEvent(anonymous, program)).toEqual({ kind: 'ignored', detail })
  })

  test('an invoice that no subscription made is its customer’s payment, or ignored', () => {
    const e = envelopeOf(
      event(
        'invoice.payment_succeeded',
        { ...subscriptionInvoice({ created, subscription: 's', metadata: keys }), parent: null },
        { created },
      ),
    )
    const detail = 'Invoice without a subscription: no subscription metadata to read svc_click_id or svc_customer_key from'
    expect(readEvent(e, program)).toMatchObject({ kind: 'payment', payment: { unknownCustomer: detail } })
    e.object.customer = null
    expect(readEvent(e, program)).toEqual({ kind: 'ignored', detail })
  })

  test("a trial's zero invoice names the customer but records no sale", () => {
    expect(readEvent(invoice({ metadata: keys, amountPaid: 0 }), program)).toMatchObject({
      kind: 'payment',
      payment: { noSale: 'Amount paid is zero: no sale recorded' },
    })
  })
})

describe('every event', () => {
  test.each([
    [true, false, 'Livemode mismatch: a live-mode event for a test-mode program'],
    [false, true, 'Livemode mismatch: a test-mode event for a live-mode program'],
  ])('livemode %p on a program with livemode %p is ignored', (live, programLive, detail) => {
    expect(readEvent(checkout({ created, metadata: keys }, { livemode: live }), { id: 7, livemode: programLive })).toEqual({
      kind: 'ignored',
      detail,
    })
  })

  test('an event type other than the two is ignored by name', () => {
    const e = { ...checkout({ created, metadata: keys }), type: 'checkout.session.expired' }
    expect(readEvent(e, program)).toEqual({
      kind: 'ignored',
      detail: 'Event type checkout.session.expired is not used: only checkout.session.completed and invoice.payment_succeeded attribute',
    })
  })
})

describe('fields of another type read as absent (the zod schemas are loose on purpose)', () => {
  test('a string amount is no amount, an array metadata carries no keys, a numeric id falls back to the event id', () => {
    const e = checkout({ created, metadata: keys, amount_total: '4900' as never, id: 42 as never, payment_intent: { id: 'pi_9' } as never })
    expect(readEvent(e, program)).toMatchObject({
      kind: 'payment',
      payment: { transactionId: 'pi_9', amountCents: 0, noSale: 'Amount paid is zero: no sale recorded' },
    })
    expect(readEvent(checkout({ created, metadata: [keys] as never }), program)).toEqual({
      kind: 'ignored',
      detail: 'No svc_click_id or svc_customer_key in the checkout session metadata: not attributed',
    })
    expect(readEnvelope({ id: ' evt_1 ', type: 'x', livemode: 'yes', created: '1', data: { object: {} } })).toEqual({
      id: 'evt_1',
      type: 'x',
      livemode: null,
      account: null,
      createdAt: null,
      object: {},
    })
    expect(readEnvelope({ id: 'evt_1', type: 'x', data: { object: [] } })).toBeNull()
  })
})

describe('promotion codes (coupons through Stripe)', () => {
  const base = { created: 1_780_000_000, amount_total: 4900, currency: 'usd', payment_intent: 'pi_p', id: 'cs_p' }
  test.each([
    ['a checkout discount with a promotion code id', { discounts: [{ coupon: 'co_1', promotion_code: 'promo_ABC' }] }, ['promo_ABC']],
    ['an expanded promotion code', { discounts: [{ promotion_code: { id: 'promo_EXP', code: 'ADA10' } }] }, ['promo_EXP']],
    [
      'total_details.breakdown',
      { total_details: { breakdown: { discounts: [{ amount: 100, discount: { promotion_code: 'promo_BRK' } }] } } },
      ['promo_BRK'],
    ],
    [
      'several, each once, in order',
      {
        discounts: [{ promotion_code: 'promo_A' }, { promotion_code: 'promo_B' }],
        total_details: { breakdown: { discounts: [{ discount: { promotion_code: 'promo_A' } }] } },
      },
      ['promo_A', 'promo_B'],
    ],
    ['a coupon without a promotion code', { discounts: [{ coupon: 'co_1', promotion_code: null }] }, []],
    ['bare discount ids', { discounts: ['di_1', 'di_2'] }, []],
    ['not a promo_ id', { discounts: [{ promotion_code: 'co_sneaky' }] }, []],
    ['hostile shapes', { discounts: 'x', total_details: { breakdown: 7 }, discount: [1, 2] }, []],
  ] as [string, Record<string, unknown>, string[]][])('%s', (_, extra, expected) => {
    expect(promotionCodesOf({ ...base, ...extra })).toEqual(expected)
  })

  test('a checkout without referral keys but with a promotion code is a payment to attribute; without either it is ignored', () => {
    const withPromo = readEvent(checkout({ ...base, metadata: {}, discounts: [{ coupon: null, promotion_code: 'promo_X' }] }), program)
    expect(withPromo).toMatchObject({
      kind: 'payment',
      payment: { promotionCodes: ['promo_X'], keys: { clickId: null, customerKey: null } },
    })
    expect(readEvent(checkout({ ...base, metadata: {} }), program).kind).toBe('ignored')
  })

  test("an invoice's discount (older API: one `discount` object) carries its promotion code", () => {
    const invoice = {
      id: 'in_p',
      billing_reason: 'subscription_create',
      amount_paid: 4900,
      currency: 'usd',
      discount: { id: 'di_1', promotion_code: 'promo_OLD' },
    }
    expect(promotionCodesOf(invoice)).toEqual(['promo_OLD'])
  })
})
