import { Elysia } from 'elysia'
import type { StripeEnvelope } from '../../domain/stripe-event.ts'
import { verifySignature, type SignatureCheck } from '../../domain/stripe-signature.ts'
import type { Received } from '../../tracking/stripe-event.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { readLimited } from '../pipeline/body.ts'
import { shared, webhook } from '../../domain/messages.ts'
import { stateOf } from '../pipeline/request-state.ts'

/** Stripe events run larger than the 64 KiB of the JSON routes (expanded invoices, many lines). */
export const WEBHOOK_BODY_LIMIT = 512 * 1024

/**
 * The exact bytes of the body, at most WEBHOOK_BODY_LIMIT: the signature covers them, so they
 * are read here instead of by the app's JSON parser (app.ts leaves /api/v1/webhooks/ alone).
 * Counted as it arrives (readLimited) so that an oversized body is refused without being held.
 */
export async function readRawBody(request: Request): Promise<Uint8Array> {
  const bytes = await readLimited(request, WEBHOOK_BODY_LIMIT)
  if (!bytes) throw new HttpError(400, webhook.bodyTooLarge)
  return bytes
}

const refusals: Record<Extract<SignatureCheck, { ok: false }>['reason'], string> = {
  missing_header: webhook.missingSignature,
  malformed_header: webhook.badSignature,
  mismatch: webhook.badSignature,
  stale: webhook.signatureTolerance,
  future: webhook.signatureTolerance,
  no_secret: webhook.noSecret,
}

/**
 * The Stripe event modules (their zod schemas), loaded with the first event, not at start: most
 * servers receive none for a while, some never (issue 36).
 */
let stripeModules: Promise<[typeof import('../../domain/stripe-event.ts'), typeof import('../../tracking/stripe-event.ts')]> | null = null
const stripe = () => (stripeModules ??= Promise.all([import('../../domain/stripe-event.ts'), import('../../tracking/stripe-event.ts')]))

/** The event of a signed body, or the 400 that records nothing (docs/decisions.md, Processor webhooks). */
async function verifiedEvent(deps: Deps, body: unknown, request: Request, secrets: readonly string[]): Promise<StripeEnvelope> {
  const bytes = body instanceof Uint8Array ? body : new Uint8Array()
  const check = verifySignature(bytes, request.headers.get('stripe-signature'), secrets, deps.clock.now())
  if (!check.ok) throw new HttpError(400, refusals[check.reason])
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new HttpError(400, webhook.notAnEvent)
  }
  const [{ readEnvelope }] = await stripe()
  const event = readEnvelope(parsed)
  if (!event) throw new HttpError(400, webhook.notAnEvent)
  return event
}

/** 200 `{ received: true }` once stored, replays included; a commission failure is logged, Stripe need not retry. */
function answer(deps: Deps, request: Request, received: Received) {
  if (!received.replayed && received.error !== undefined) {
    deps.log({
      level: 'error',
      request_id: stateOf(request).id,
      path: stateOf(request).path,
      detail: received.detail,
      error: String((received.error as Error)?.stack ?? received.error),
    })
  }
  return { received: true }
}

const description =
  'Verifies the Stripe-Signature header (HMAC-SHA256, 300 s tolerance both ways) over the raw body, ' +
  'stores the event once by its id with its outcome (GET /api/v1/admin/programs/:id/events) and answers { received: true }. ' +
  'checkout.session.completed (mode payment) and invoice.payment_succeeded record sales and settle provisional leads ' +
  'from the metadata keys svc_click_id, svc_customer_key and program_id. A bad signature or body answers 400 and records nothing.'

/** POST /api/v1/webhooks/stripe/:program_id (the program's own account) and /api/v1/webhooks/stripe (Connect). */
export function stripeWebhookRoutes(deps: Deps) {
  const { programs } = deps.database.stores
  const parse = ({ request }: { request: Request }) => readRawBody(request)
  return new Elysia({ name: 'webhooks-stripe' })
    .post(
      '/api/v1/webhooks/stripe/:program_id',
      async ({ params, body, request }) => {
        const id = Number(params.program_id)
        const program = Number.isSafeInteger(id) && id > 0 ? programs.findProgram(id) : null
        if (!program) throw new HttpError(404, webhook.programNotFound)
        const event = await verifiedEvent(deps, body, request, program.stripeWebhookSecrets)
        const [, { receiveStripeEvent }] = await stripe()
        return answer(deps, request, await receiveStripeEvent(deps, event, program))
      },
      { parse, detail: doc("Receive a Stripe event of the program's own account", 'webhooks', { description }) },
    )
    .post(
      '/api/v1/webhooks/stripe',
      async ({ body, request }) => {
        const secret = deps.config.stripeConnectWebhookSecret
        // docs/decisions.md: the Connect route exists only while STRIPE_CONNECT_WEBHOOK_SECRET is set.
        if (secret === null) throw new HttpError(404, shared.notFound)
        const event = await verifiedEvent(deps, body, request, [secret])
        const program = event.account === null ? null : deps.database.stores.events.programOfAccount(event.account)
        // Stored all the same, so that the owner can see an event that reached no program.
        const unrouted =
          event.account === null
            ? 'Connect event without an account: no program to route it to'
            : `No program has stripe_account_id ${event.account}: not routed`
        const [, { receiveStripeEvent }] = await stripe()
        return answer(deps, request, await receiveStripeEvent(deps, event, program, unrouted))
      },
      {
        parse,
        detail: doc('Receive a Stripe Connect event, routed by event.account to the program with that stripe_account_id', 'webhooks', {
          description,
        }),
      },
    )
}
