import { Elysia } from 'elysia'
import type { ProcessorName } from '../../processors/processor.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { answer, loaded, parseRaw, programOf, verifiedEvent } from './verify.ts'

/** The merchant-of-record processors' routes and what each page of docs/processors/ says they do. */
const ROUTES: { name: Exclude<ProcessorName, 'stripe'>; summary: string; description: string }[] = [
  {
    name: 'paddle',
    summary: 'Receive a Paddle Billing event',
    description:
      "Verifies Paddle-Signature (ts and h1 = HMAC-SHA256 of ts + ':' + raw body under paddle_webhook_secret, 5 s tolerance as Paddle's SDK). " +
      'transaction.completed records a sale (total minus tax; custom_data.svc_click_id / svc_customer_key, else the customer paddle:<customer_id>); ' +
      'an approved refund or chargeback adjustment (adjustment.created/updated) refunds its transaction.',
  },
  {
    name: 'lemonsqueezy',
    summary: 'Receive a Lemon Squeezy event',
    description:
      'Verifies X-Signature (hex HMAC-SHA256 of the raw body under lemonsqueezy_webhook_secret). order_created (ls_order_<id>) and ' +
      'subscription_payment_success (renewals, ls_invoice_<id>) record sales from meta.custom_data; order_refunded and ' +
      'subscription_payment_refunded refund them. meta.test_mode events are test data.',
  },
  {
    name: 'polar',
    summary: 'Receive a Polar event',
    description:
      "Verifies the Standard Webhooks headers (webhook-id, webhook-timestamp within 300 s, webhook-signature v1) as Polar's SDK does, " +
      'under polar_webhook_secret. order.paid records a sale (polar_<order id>, net of tax; metadata.svc_click_id, customer.external_id ' +
      'or metadata.svc_customer_key, else polar:<customer_id>); order.refunded refunds it.',
  },
]

const common =
  ' Stores the event once with its outcome (GET /api/v1/admin/programs/:id/events) and answers { received: true }, replays too; ' +
  'an event in a currency the program does not list is stored as ignored with that reason. A bad signature or body answers 400 and records nothing.'

/** POST /api/v1/webhooks/<processor>/:program_id for Paddle, Lemon Squeezy and Polar (docs/processors/). */
export function merchantWebhookRoutes(deps: Deps) {
  const app = new Elysia({ name: 'webhooks-merchants' })
  // Elysia adds each route to the instance itself; the loop keeps one handler for the three.
  for (const { name, summary, description } of ROUTES) {
    app.post(
      `/api/v1/webhooks/${name}/:program_id`,
      async ({ params, body, request }) => {
        const program = programOf(deps, params.program_id)
        const [{ processors }, { receiveProcessorEvent }] = await loaded()
        const processor = processors[name]
        const event = await verifiedEvent(deps, processor, body, request, processor.secretsOf(program))
        return answer(deps, request, await receiveProcessorEvent(deps, processor, event, program))
      },
      { parse: parseRaw, detail: doc(summary, 'webhooks', { description: description + common }) },
    )
  }
  return app
}
