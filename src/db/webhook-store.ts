import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { type WebhookEventType, webhookDeliveries, webhookEndpoints, webhookEvents } from './schema.ts'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type DeliveryStatus = WebhookDelivery['status']

/** A claimed delivery with what sending it takes: the endpoint's URL and secrets, the event's id and body. */
export interface DueDelivery {
  delivery: WebhookDelivery
  endpoint: Pick<WebhookEndpoint, 'id' | 'programId' | 'url' | 'secret' | 'previousSecret' | 'previousUntil' | 'active' | 'failingSince'>
  event: { eventId: string; type: WebhookEventType; body: string }
}

/** A delivery as the deliveries route lists it, with its event's id and type. */
export type ListedDelivery = WebhookDelivery & { eventKey: string; type: WebhookEventType }

/**
 * Webhook endpoints, events and deliveries (src/outbox/README.md). The active endpoints of each
 * program are kept in the catalog, read by every change that may make an event; every endpoint
 * write drops the copy. Writes run inside a writer unit.
 */
export class WebhookStore {
  // The writes made once per event and once per attempt, prepared once: Drizzle's builder
  // prepared them again on every call, most of a delivery's cost (bench/README.md, issue 25).
  private readonly s

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {
    const { client } = connection
    this.s = {
      event: client.prepare(
        'INSERT INTO webhook_events (event_id, program_id, type, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      ),
      delivery: client.prepare('INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at) VALUES (?, ?, ?, ?)'),
      delivered: client.prepare(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = NULL, status = 'delivered', delivered_at = ? WHERE id = ?",
      ),
      retry: client.prepare(
        'UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = ?, next_attempt_at = ? WHERE id = ?',
      ),
      failed: client.prepare(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = ?, status = 'failed' WHERE id = ?",
      ),
    }
  }

  create(values: {
    programId: number
    url: string
    events: WebhookEventType[]
    description: string | null
    secret: string
    now: number
  }): WebhookEndpoint {
    this.catalog.changed()
    const { now, ...rest } = values
    return this.connection.db
      .insert(webhookEndpoints)
      .values({ ...rest, createdAt: now })
      .returning()
      .get()
  }

  /** A program's endpoints, oldest first (deleted ones left out). */
  list(programId: number): WebhookEndpoint[] {
    return this.connection.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.programId, programId), isNull(webhookEndpoints.deletedAt)))
      .orderBy(webhookEndpoints.id)
      .all()
  }

  /** An endpoint, or null (also when deleted). */
  find(id: number): WebhookEndpoint | null {
    return (
      this.connection.db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
        .get() ?? null
    )
  }

  /** Changes an endpoint; turning it on again forgets its run of failures. */
  update(id: number, changes: Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'description' | 'active'>>): WebhookEndpoint | null {
    this.catalog.changed()
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))
    if (changes.active === true) Object.assign(set, { failingSince: null, disabledAt: null })
    if (Object.keys(set).length > 0) this.connection.db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).run()
    return this.find(id)
  }

  /** Deletes an endpoint: it gets nothing more; its deliveries stay for the record. */
  remove(id: number, now: number): void {
    this.catalog.changed()
    this.connection.db.update(webhookEndpoints).set({ deletedAt: now, active: false }).where(eq(webhookEndpoints.id, id)).run()
    this.connection.db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: 'endpoint deleted' })
      .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')))
      .run()
  }

  /** A new signing secret; the current one keeps signing until `previousUntil`. */
  rotate(id: number, secret: string, previousUntil: number): void {
    this.connection.db
      .update(webhookEndpoints)
      .set({ previousSecret: sql`${webhookEndpoints.secret}`, previousUntil, secret })
      .where(eq(webhookEndpoints.id, id))
      .run()
  }

  /** The program's active endpoints and the types each takes, from the catalog. */
  subscribers(programId: number): { id: number; events: WebhookEventType[] }[] {
    return (
      this.catalog.row(`webhooks:${programId}`, () =>
        this.connection.db
          .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
          .from(webhookEndpoints)
          .where(and(eq(webhookEndpoints.programId, programId), eq(webhookEndpoints.active, true), isNull(webhookEndpoints.deletedAt)))
          .all(),
      ) ?? []
    )
  }

  /**
   * Records an event and a delivery to each endpoint given, due at once; answers the event's
   * `evt_…` id. `body` is the exact JSON sent on every attempt.
   */
  /** Told once the batch that recorded events has committed: the server wakes the sender with it. */
  onRecorded: (() => void) | null = null

  recordEvent(programId: number, type: WebhookEventType, body: (eventId: string) => string, endpointIds: number[], now: number): string {
    // Time first (12 hex digits of ms), then 80 random bits: the UNIQUE index on event_id grows at
    // its end instead of taking a random page per event.
    const eventId = `evt_${now.toString(16).padStart(12, '0')}${randomBytes(10).toString('base64url')}`
    const event = this.s.event.get(eventId, programId, type, body(eventId), now) as { id: number }
    for (const endpointId of endpointIds) this.s.delivery.run(endpointId, event.id, now, now)
    // The first attempt follows the commit at once rather than at the next poll.
    if (this.onRecorded) this.connection.writer.afterBatch(this.onRecorded)
    return eventId
  }

  /** Whether a delivery may be due at `now` (a read outside the writer: an idle server writes nothing). */
  anyDue(now: number): boolean {
    return (
      this.connection.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now), eq(webhookEndpoints.active, true)))
        .limit(1)
        .get() !== undefined
    )
  }

  /**
   * The `limit` deliveries of active endpoints due first at `now`, with their endpoint and event.
   * Nothing is written: the one sender (src/outbox/sender.ts) takes a batch only once the one
   * before it is recorded, so no two attempts of a delivery overlap, and a crash leaves nothing
   * claimed (a lease row per delivery cost a write per event).
   */
  claim(now: number, limit: number): DueDelivery[] {
    return this.connection.db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now), eq(webhookEndpoints.active, true)))
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit)
      .all()
      .map(({ delivery, endpoint, event }) => ({
        delivery,
        endpoint,
        event: { eventId: event.eventId, type: event.type, body: event.body },
      }))
  }

  /** Records an attempt. `next` null on a failure makes the delivery `failed` for good. */
  recordAttempt(
    id: number,
    outcome: { ok: boolean; statusCode: number | null; error: string | null; next: number | null },
    now: number,
  ): void {
    if (outcome.ok) this.s.delivered.run(outcome.statusCode, now, id)
    else if (outcome.next === null) this.s.failed.run(outcome.statusCode, outcome.error?.slice(0, 300) ?? null, id)
    else this.s.retry.run(outcome.statusCode, outcome.error?.slice(0, 300) ?? null, outcome.next, id)
  }

  /**
   * Notes an endpoint's attempt: a success ends its run of failures; a failure starts one when
   * none runs. Answers when the run began (null after a success, and once the endpoint is
   * disabled: the other failures of the batch that disabled it neither disable nor email again).
   */
  noteEndpoint(id: number, ok: boolean, now: number): number | null {
    const { db } = this.connection
    if (ok) {
      db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, id)).run()
      return null
    }
    db.update(webhookEndpoints)
      .set({ failingSince: now })
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.failingSince)))
      .run()
    const row = db
      .select({ since: webhookEndpoints.failingSince, disabledAt: webhookEndpoints.disabledAt })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .get()
    return row?.disabledAt != null ? null : (row?.since ?? now)
  }

  /** Sets an endpoint inactive after 3 days of failures. */
  disable(id: number, now: number): void {
    this.catalog.changed()
    this.connection.db.update(webhookEndpoints).set({ active: false, disabledAt: now }).where(eq(webhookEndpoints.id, id)).run()
  }

  /** An endpoint's deliveries, newest first, `status` filtered, ids below `cursor`. */
  deliveries(endpointId: number, status: DeliveryStatus | undefined, limit: number, cursor: number | null): ListedDelivery[] {
    return this.connection.db
      .select({ delivery: webhookDeliveries, eventKey: webhookEvents.eventId, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          status === undefined ? undefined : eq(webhookDeliveries.status, status),
          cursor === null ? undefined : lt(webhookDeliveries.id, cursor),
        ),
      )
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit)
      .all()
      .map(({ delivery, eventKey, type }) => ({ ...delivery, eventKey, type }))
  }

  /** One delivery of an endpoint by its event's `evt_…` id, or null. */
  deliveryOf(endpointId: number, eventId: string): ListedDelivery | null {
    const row = this.connection.db
      .select({ delivery: webhookDeliveries, eventKey: webhookEvents.eventId, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookEvents.eventId, eventId)))
      .get()
    return row ? { ...row.delivery, eventKey: row.eventKey, type: row.type } : null
  }

  /** Makes every undelivered delivery of an endpoint due now; answers how many. */
  retryAll(endpointId: number, now: number): number {
    return this.connection.db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, claimedUntil: null })
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          or(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.status, 'failed')),
        ),
      )
      .returning({ id: webhookDeliveries.id })
      .all().length
  }
}
