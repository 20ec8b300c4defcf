import { obj } from './openapi-schema.ts'
import type { Route } from './route-table.ts'

// The payment processors' webhook rows of the route table (route-table.ts spreads them in):
// each reads the raw body its signature covers and answers { received: true } (src/http/webhooks).

/** The webhook routes by "METHOD /path", as src/http/webhooks registers them. */
export const webhookRows: Record<string, Route> = {
  'POST /api/v1/webhooks/stripe/:program_id': {
    id: 'receiveStripeEvent',
    reads: 'raw',
    body: obj({ received: { const: true } }),
    errors: { 400: 'Bad signature, body too large, or not a Stripe event', 404: 'Program not found', 500: 'Internal error' },
  },
  'POST /api/v1/webhooks/stripe': {
    id: 'receiveStripeConnectEvent',
    reads: 'raw',
    body: obj({ received: { const: true } }),
    errors: {
      400: 'Bad signature, body too large, or not a Stripe event',
      404: 'STRIPE_CONNECT_WEBHOOK_SECRET is not set',
      500: 'Internal error',
    },
  },
  // Paddle, Lemon Squeezy and Polar (docs/processors/): the same answers as Stripe's route.
  ...Object.fromEntries(
    (['Paddle', 'LemonSqueezy', 'Polar'] as const).map((label) => [
      `POST /api/v1/webhooks/${label.toLowerCase()}/:program_id`,
      {
        id: `receive${label}Event`,
        reads: 'raw' as const,
        body: obj({ received: { const: true } }),
        errors: { 400: `Bad signature, body too large, or not a ${label} event`, 404: 'Program not found', 500: 'Internal error' },
      },
    ]),
  ),
}
