import { Elysia } from 'elysia'
import { shared } from '../../domain/messages.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { answer, loaded, parseRaw, programOf, verifiedEvent } from './verify.ts'

const description =
  'Verifies the Stripe-Signature header (HMAC-SHA256, 300 s tolerance both ways) over the raw body, ' +
  'stores the event once by its id with its outcome (GET /api/v1/admin/programs/:id/events) and answers { received: true }. ' +
  'checkout.session.completed (mode payment) and invoice.payment_succeeded record sales and settle provisional leads ' +
  'from the metadata keys svc_click_id, svc_customer_key and program_id; charge.refunded refunds and charge.dispute.created ' +
  'charges back the sale its payment made. A bad signature or body answers 400 and records nothing.'

/** POST /api/v1/webhooks/stripe/:program_id (the program's own account) and /api/v1/webhooks/stripe (Connect). */
export function stripeWebhookRoutes(deps: Deps) {
  return new Elysia({ name: 'webhooks-stripe' })
    .post(
      '/api/v1/webhooks/stripe/:program_id',
      async ({ params, body, request }) => {
        const program = programOf(deps, params.program_id)
        const [{ processors }, { receiveProcessorEvent }] = await loaded()
        const { stripe } = processors
        const event = await verifiedEvent(deps, stripe, body, request, stripe.secretsOf(program))
        return answer(deps, request, await receiveProcessorEvent(deps, stripe, event, program))
      },
      { parse: parseRaw, detail: doc("Receive a Stripe event of the program's own account", 'webhooks', { description }) },
    )
    .post(
      '/api/v1/webhooks/stripe',
      async ({ body, request }) => {
        const secret = deps.config.stripeConnectWebhookSecret
        // docs/decisions.md: the Connect route exists only while STRIPE_CONNECT_WEBHOOK_SECRET is set.
        if (secret === null) throw new HttpError(404, shared.notFound)
        const [{ processors }, { receiveProcessorEvent }] = await loaded()
        const { stripe } = processors
        const event = await verifiedEvent(deps, stripe, body, request, [secret])
        const program = event.account === null ? null : deps.database.stores.events.programOfAccount(event.account)
        // Stored all the same, so that the owner can see an event that reached no program.
        const unrouted =
          event.account === null
            ? 'Connect event without an account: no program to route it to'
            : `No program has stripe_account_id ${event.account}: not routed`
        return answer(deps, request, await receiveProcessorEvent(deps, stripe, event, program, unrouted))
      },
      {
        parse: parseRaw,
        detail: doc('Receive a Stripe Connect event, routed by event.account to the program with that stripe_account_id', 'webhooks', {
          description,
        }),
      },
    )
}
