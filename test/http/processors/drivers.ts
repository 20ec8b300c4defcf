// One driver per payment processor for the contract test (contract.test.ts): events shaped as each
// processor's documentation shows them, signed exactly as each processor signs them, by code of
// the test's own or the processor's own package (never the service's signer).
import type { Driver } from './driver.ts'
import { lemonsqueezy } from './driver-lemonsqueezy.ts'
import { paddle } from './driver-paddle.ts'
import { polar } from './driver-polar.ts'
import { stripe } from './driver-stripe.ts'

export type { Driver, Payment, Sent } from './driver.ts'
export { lemonsqueezy, paddle, polar, stripe }

export const drivers: Driver[] = [stripe, paddle, lemonsqueezy, polar]
