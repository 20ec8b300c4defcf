// One driver per payment processor for the contract test (contract.test.ts): events shaped as each
// processor's documentation shows them, signed exactly as each processor signs them, by code of
// the test's own or the processor's own package (never the service's signer).
import type { Driver } from './drivers/driver.ts'
import { lemonsqueezy } from './drivers/lemonsqueezy.ts'
import { paddle } from './drivers/paddle.ts'
import { polar } from './drivers/polar.ts'
import { stripe } from './drivers/stripe.ts'

export type { Driver, Payment, Sent } from './drivers/driver.ts'
export { lemonsqueezy, paddle, polar, stripe }

export const drivers: Driver[] = [stripe, paddle, lemonsqueezy, polar]
