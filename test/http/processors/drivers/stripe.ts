// Stripe: docs.stripe.com/api/events/object; signed by the stripe package's test header helper.
import Stripe from 'stripe'
import { checkoutSession, event as stripeEvent, subscriptionInvoice } from '../../webhooks/fixtures.ts'
import { custom, type Driver, next, now } from './driver.ts'

const stripeSdk = new Stripe('sk_test_contract')

export const stripe: Driver = {
  name: 'stripe',
  label: 'Stripe',
  secretField: 'stripe_webhook_secret',
  secret: () => next('whsec'),
  payment(p) {
    const created = now()
    const livemode = !p.testMode
    if (p.renewal) {
      // A renewal: the subscription's invoice, whose metadata is the subscription's (docs/api.md).
      const invoice = {
        ...subscriptionInvoice({
          created,
          subscription: `sub_${p.customer}`,
          metadata: custom(p),
          amountPaid: p.net,
          currency: p.currency.toLowerCase(),
          billingReason: 'subscription_cycle',
        }),
        customer: p.customer,
        livemode,
      }
      return {
        body: JSON.stringify(stripeEvent('invoice.payment_succeeded', invoice, { created, livemode })),
        transactionId: invoice.id!,
        ref: invoice.id!,
      }
    }
    const session = checkoutSession({
      created,
      metadata: custom(p),
      amount_total: p.net,
      currency: p.currency.toLowerCase(),
      customer: p.customer,
      livemode,
    })
    const e = stripeEvent('checkout.session.completed', session, { created, livemode })
    return { body: JSON.stringify(e), transactionId: session.payment_intent as string, ref: session.payment_intent as string }
  },
  refund(sale, p) {
    // docs.stripe.com/api/charges/object (the fields read, and the ones every charge has).
    const charge = {
      id: next('ch'),
      object: 'charge',
      amount: p.net,
      amount_refunded: p.net,
      currency: p.currency.toLowerCase(),
      customer: p.customer,
      livemode: !p.testMode,
      paid: true,
      payment_intent: sale.ref,
      refunded: true,
      status: 'succeeded',
      created: now(),
    }
    return { body: JSON.stringify({ ...stripeEvent('charge.refunded', charge as never, { created: now(), livemode: !p.testMode }) }) }
  },
  chargeback(sale, p) {
    // docs.stripe.com/api/disputes/object.
    const dispute = {
      id: next('dp'),
      object: 'dispute',
      amount: p.net,
      charge: next('ch'),
      currency: p.currency.toLowerCase(),
      livemode: !p.testMode,
      payment_intent: sale.ref,
      reason: 'fraudulent',
      status: 'needs_response',
      created: now(),
    }
    return { body: JSON.stringify(stripeEvent('charge.dispute.created', dispute as never, { created: now(), livemode: !p.testMode })) }
  },
  unknown: () => ({
    body: JSON.stringify(
      stripeEvent('customer.created' as never, { id: next('cus'), object: 'customer' } as never, { created: now(), livemode: true }),
    ),
  }),
  sign: async (body, secret, seconds) => ({
    'stripe-signature': await stripeSdk.webhooks.generateTestHeaderStringAsync({ payload: body, secret, timestamp: seconds }),
  }),
  staleAfterSeconds: 300,
  testMode: true,
  sdkAccepts: async (body, headers, secret) => {
    try {
      await stripeSdk.webhooks.constructEventAsync(body, headers['stripe-signature']!, secret)
      return true
    } catch {
      return false
    }
  },
}
