import type { Actor } from '../domain/audit.ts'
import { randomBytes } from 'node:crypto'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../db/schema.ts'
import { type DueDelivery, type ListedDelivery, WRITE_EVENTS, type WebhookEndpoint } from '../db/webhook-store.ts'
import { isPrivateAddress } from '../domain/address.ts'
import { presentRow } from '../domain/record.ts'
import { hostOf, PRIVATE_URL, refusedUrl } from '../outbox/webhooks/target.ts'
import type { TrackingDeps } from './deps.ts'

/** The words of a refused URL (docs/decisions.md, Outbound webhooks: 400 at creation). */
export const URL_WORDS = {
  invalid: 'url must be an http(s) URL of at most 2000 characters',
  private: PRIVATE_URL,
} as const

/** A new signing secret: whsec_ and the base64 of 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

/**
 * The URL an endpoint may take, or why not: http(s), and (unless `allowPrivate`) neither a private
 * address nor a name that resolves to one now. A name that does not resolve is taken: its
 * deliveries fail and are retried, and each is checked again when it is made.
 */
export async function checkedUrl(value: string, allowPrivate: boolean): Promise<{ url: string } | { refused: string }> {
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    return { refused: URL_WORDS.invalid }
  }
  if (value.length > 2000) return { refused: URL_WORDS.invalid }
  const refused = refusedUrl(parsed, allowPrivate)
  if (refused) return { refused }
  if (!allowPrivate) {
    const host = hostOf(parsed)
    // node:dns loaded with the first endpoint added, not at start (issue 36).
    const { lookup } = await import('node:dns/promises')
    const addresses = await lookup(host, { all: true }).catch(() => [])
    if (addresses.some((a) => isPrivateAddress(a.address))) return { refused: URL_WORDS.private }
  }
  return { url: parsed.toString() }
}

/** Adds an endpoint (its URL checked) in one writer unit; answers it with its secret, shown once. */
export async function addEndpoint(
  deps: TrackingDeps,
  by: Actor,
  allowPrivate: boolean,
  input: { programId: number; url: string; events?: WebhookEventType[]; description?: string | null },
): Promise<{ endpoint: WebhookEndpoint; secret: string } | { refused: string }> {
  const checked = await checkedUrl(input.url, allowPrivate)
  if ('refused' in checked) return checked
  const secret = newSecret()
  const events = [...new Set(input.events ?? WEBHOOK_EVENT_TYPES)] as WebhookEventType[]
  const endpoint = await deps.database.writer.run(() => {
    const now = deps.clock.now()
    const { webhooks, audit } = deps.database.stores
    const made = webhooks.create({
      programId: input.programId,
      url: checked.url,
      events,
      description: input.description ?? null,
      secret,
      now,
    })
    audit.write(by, now, {
      program: input.programId,
      action: 'webhook.create',
      object: ['webhook', made.id],
      details: { url: made.url, events },
    })
    return made
  })
  return { endpoint, secret }
}

/** A new signing secret for an endpoint; the current one signs too for 24 hours (on the injected clock, as every time rule). */
export async function rotateSecret(deps: TrackingDeps, by: Actor, endpoint: WebhookEndpoint): Promise<string> {
  const secret = newSecret()
  await deps.database.writer.run(() => {
    const now = deps.clock.now()
    deps.database.stores.webhooks.rotate(endpoint.id, secret, now + 24 * 3_600_000)
    deps.database.stores.audit.write(by, now, { program: endpoint.programId, action: 'webhook.secret', object: ['webhook', endpoint.id] })
  })
  return secret
}

/** How long the pool leaves a test delivery to the route that attempts it (the route answers within 10 s). */
const TEST_HOLD_MS = 10_000

/**
 * Sends a `webhook.test` event to one endpoint now and waits for its attempt, made at once outside
 * the pool's slots with its own 8 s deadline (docs/decisions.md, Webhook delivery: the route
 * answers within 10 s); answers the delivery as it then stands. The delivery is due to the pool
 * only after the route's time, so that a crash meanwhile leaves it to be attempted after the restart.
 * An inactive endpoint's delivery waits, pending, like its others.
 */
export async function sendTest(
  deps: TrackingDeps,
  endpoint: WebhookEndpoint,
  attemptNow: (row: DueDelivery) => Promise<void>,
): Promise<ListedDelivery> {
  const { webhooks } = deps.database.stores
  // The events recorded before it get their deliveries first: a list, newest first, shows the test last made.
  await catchUpDeliveries(deps)
  const deliveryId = await deps.database.writer.run(() => {
    const now = deps.clock.now()
    const data = { webhook_id: endpoint.id, program_id: endpoint.programId, message: 'A test event from svc' }
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date(now).toISOString(), data })
    return webhooks.recordHeldEvent(endpoint.programId, 'webhook.test', body, endpoint.id, now, now + TEST_HOLD_MS)
  })
  if (endpoint.active) await attemptNow(webhooks.dueDelivery(deliveryId)!)
  return webhooks.listedDelivery(deliveryId)!
}

/**
 * Writes the deliveries of every event recorded before this call (WebhookStore.writeDeliveries),
 * a few thousand a unit, so that a list of deliveries shows each event recorded as pending even
 * before the pool has taken it.
 */
export async function catchUpDeliveries(deps: TrackingDeps): Promise<void> {
  const { webhooks } = deps.database.stores
  const { last, written } = webhooks.progress()
  if (written >= last) return
  while (await deps.database.writer.run(() => webhooks.writeDeliveries(WRITE_EVENTS, last)));
}

/** An endpoint as the API shows it: never its secrets. */
export function presentEndpoint(endpoint: WebhookEndpoint): Record<string, unknown> {
  const { secret: _s, previousSecret: _p, previousUntil: _u, failingSince: _f, deletedAt: _d, ...rest } = endpoint
  return presentRow('webhook', rest)
}

/** A delivery as the deliveries route lists it. */
export function presentDelivery(d: ListedDelivery): Record<string, unknown> {
  return {
    delivery_id: d.id,
    event_id: d.eventKey,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    next_attempt_at: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
    delivered_at: d.deliveredAt === null ? null : new Date(d.deliveredAt).toISOString(),
    created_at: new Date(d.createdAt).toISOString(),
  }
}

/**
 * Makes every undelivered delivery of an endpoint due now, those of events not yet taken by the
 * pool included, and wakes the pool; answers how many.
 */
export async function retryDeliveries(deps: TrackingDeps, wakePool: () => void, endpointId: number): Promise<number> {
  await catchUpDeliveries(deps)
  const queued = await deps.database.writer.run(() => deps.database.stores.webhooks.retryAll(endpointId, deps.clock.now()))
  wakePool()
  return queued
}
