import type { DueDelivery, WebhookStore } from '../../db/webhook-store.ts'
import { webhookRetryAt } from '../schedule.ts'

/** docs/decisions.md, Webhook delivery: an attempt ends within 15 s, body included. */
export const ATTEMPT_MS = 15_000
/** The test route's attempt (docs/decisions.md: the route answers within 10 s). */
export const TEST_ATTEMPT_MS = 8_000
/** An endpoint with only failures for 3 days is set inactive. */
const FAILING_FOR_MS = 72 * 3_600_000

/** What one attempt takes: plain data, so that it can be handed to a worker. */
export interface AttemptJob {
  url: string
  /** The secrets that sign: the current one, and during a rotation the previous one. */
  secrets: string[]
  eventId: string
  body: string
  timeoutMs: number
  allowPrivate: boolean
}

/** An attempt's outcome: the status of a 2xx answer, or why it failed (with the status when there was one). */
export type AttemptOutcome = { ok: true; status: number } | { ok: false; error: string; statusCode: number | null }

/**
 * The attempt of a claimed delivery: its endpoint's URL and signing secrets at `now`, the injected
 * clock's time (the old secret's 24 hours are a time rule like the others).
 */
export function jobOf({ endpoint, event }: DueDelivery, now: number, timeoutMs: number, allowPrivate: boolean): AttemptJob {
  const secrets = [endpoint.secret]
  if (endpoint.previousSecret && endpoint.previousUntil !== null && endpoint.previousUntil > now) secrets.push(endpoint.previousSecret)
  return { url: endpoint.url, secrets, eventId: event.eventId, body: event.body, timeoutMs, allowPrivate }
}

/**
 * Records an attempt inside a writer unit: delivered, or a failure with its retry (or `failed`
 * when the schedule is spent). `onDisabled` is told of an endpoint set inactive after 3 days of
 * failures (its account is emailed), in the same unit.
 */
export function recordOutcome(
  store: WebhookStore,
  { delivery, endpoint }: DueDelivery,
  outcome: AttemptOutcome,
  now: number,
  onDisabled: (endpointId: number, programId: number, now: number) => void,
): void {
  if (outcome.ok) {
    store.recordAttempt(delivery.id, { ok: true, statusCode: outcome.status, error: null, next: null }, now)
    // Only an endpoint in a run of failures has one to end.
    if (endpoint.failingSince !== null) store.noteEndpoint(endpoint.id, true, now)
    return
  }
  const next = webhookRetryAt(delivery.attempts + 1, now)
  store.recordAttempt(delivery.id, { ok: false, statusCode: outcome.statusCode, error: outcome.error, next }, now)
  const since = store.noteEndpoint(endpoint.id, false, now)
  if (since !== null && now - since >= FAILING_FOR_MS) {
    store.disable(endpoint.id, now)
    onDisabled(endpoint.id, endpoint.programId, now)
  }
}
