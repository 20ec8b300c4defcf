// The payment processors by name (src/processors/README.md): each one a file
// implementing processor.ts's Processor; the webhook routes and the CLI replay look them up here.
import { lemonsqueezy } from './lemonsqueezy.ts'
import { paddle } from './paddle.ts'
import { polar } from './polar.ts'
import type { Processor, ProcessorName } from './processor.ts'
import { stripe } from './stripe.ts'

export const processors: Record<ProcessorName, Processor> = { stripe, paddle, lemonsqueezy, polar }

export type { Processor, ProcessorName } from './processor.ts'
