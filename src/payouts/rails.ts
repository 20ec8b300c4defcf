// The rails this server is configured for (docs/payouts.md, Configuration): each on when its credentials are set.
import type { Config } from '../config.ts'
import type { PayoutRail } from '../domain/payout-method.ts'
import { paypalRail } from './paypal.ts'
import type { Rail } from './rail.ts'
import { stripeRail } from './stripe.ts'

export type Rails = Partial<Record<PayoutRail, Rail>>

/** The rails of the configuration: PayPal with PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET, Stripe with STRIPE_SECRET_KEY. */
export function railsOf(config: Pick<Config, 'paypal' | 'stripe'>): Rails {
  return {
    ...(config.paypal ? { paypal: paypalRail(config.paypal) } : {}),
    ...(config.stripe ? { stripe: stripeRail(config.stripe) } : {}),
  }
}
