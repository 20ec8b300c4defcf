// What every processor's webhook route shares (docs/decisions.md, Processor webhooks): the raw
// body, the program of the path, the signature check and the parse that answer 400 and record
// nothing, and the 200 `{ received: true }` once the event is stored.
import type { Program } from '../../db/schema.ts'
import { processorWebhook, webhook } from '../../domain/messages.ts'
import type { Processor, ProcessorEvent, SignatureFailure } from '../../processors/processor.ts'
import type { Received } from '../../tracking/processor-event.ts'
import type { Deps } from '../deps.ts'
import { readLimited } from '../pipeline/body.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { stateOf } from '../pipeline/request-state.ts'

/** Processor events run larger than the 64 KiB of the JSON routes (expanded invoices, many lines). */
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

/** Elysia's `parse` hook of the webhook routes. */
export const parseRaw = ({ request }: { request: Request }) => readRawBody(request)

/** The 400 message of a failed check, in the processor's words (Stripe's as docs/api.md spells them). */
function refusal(processor: Processor, reason: SignatureFailure): string {
  const { header, label } = processor
  switch (reason) {
    case 'missing_header':
      return processorWebhook.missingSignature(processor.name === 'polar' ? 'webhook-id, webhook-timestamp or webhook-signature' : header)
    case 'malformed_header':
    case 'mismatch':
      return processorWebhook.badSignature(header)
    case 'stale':
    case 'future':
      return processorWebhook.signatureTolerance(processor.name === 'polar' ? 'webhook-timestamp' : header, processor.toleranceSeconds ?? 0)
    case 'no_secret':
      return processorWebhook.noSecret(label)
  }
}

/**
 * The processors and the shared use case (their zod schemas and parsers), loaded with the first
 * event, not at start: most servers receive none for a while, some never (issue 36).
 */
let modules: Promise<[typeof import('../../processors/index.ts'), typeof import('../../tracking/processor-event.ts')]> | null = null
export const loaded = () => (modules ??= Promise.all([import('../../processors/index.ts'), import('../../tracking/processor-event.ts')]))

/** The program of `:program_id`, or the 404. */
export function programOf(deps: Deps, param: string): Program {
  const id = Number(param)
  const program = Number.isSafeInteger(id) && id > 0 ? deps.database.stores.programs.findProgram(id) : null
  if (!program) throw new HttpError(404, webhook.programNotFound)
  return program
}

/** The event of a signed body, or the 400 that records nothing (docs/decisions.md, Processor webhooks). */
export async function verifiedEvent(
  deps: Deps,
  processor: Processor,
  body: unknown,
  request: Request,
  secrets: readonly string[],
): Promise<ProcessorEvent> {
  const bytes = body instanceof Uint8Array ? body : new Uint8Array()
  const check = processor.verify(bytes, request.headers, secrets, deps.clock.now())
  if (!check.ok) throw new HttpError(400, refusal(processor, check.reason))
  let parsed: unknown
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new HttpError(400, processorWebhook.notAnEvent(processor.label, processor.shape))
  }
  const event = processor.parse(parsed, bytes, request.headers)
  if (!event) throw new HttpError(400, processorWebhook.notAnEvent(processor.label, processor.shape))
  return event
}

/** 200 `{ received: true }` once stored, replays included; a commission failure is logged, the processor need not retry. */
export function answer(deps: Deps, request: Request, received: Received) {
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
