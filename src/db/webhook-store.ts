import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { type WebhookEventType, webhookDeliveries, webhookEndpoints, webhookEvents } from './schema.ts'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type DeliveryStatus = WebhookDelivery['status']

/** A claimed delivery with what sending it takes: the endpoint's URL and secrets, the event's id and body. */
export interface DueDelivery {
  delivery: Pick<WebhookDelivery, 'id' | 'attempts' | 'nextAttemptAt'>
  endpoint: Pick<WebhookEndpoint, 'id' | 'programId' | 'url' | 'secret' | 'previousSecret' | 'previousUntil' | 'active' | 'failingSince'>
  event: { eventId: string; type: WebhookEventType; body: string }
}

// What an attempt needs of a delivery, its endpoint and its event: one statement, prepared once.
const DUE_SELECT = `SELECT d.id, d.attempts, d.next_attempt_at AS nextAttemptAt, e.id AS endpointId, e.program_id AS programId,
  e.url, e.secret, e.previous_secret AS previousSecret, e.previous_until AS previousUntil, e.active, e.failing_since AS failingSince,
  v.event_id AS eventId, v.type, v.body
FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events v ON v.id = d.event_id`

type DueRow = Omit<DueDelivery['delivery'] & DueDelivery['endpoint'] & DueDelivery['event'], 'id' | 'active'> & {
  id: number
  endpointId: number
  active: number
}

const dueDelivery = (r: DueRow): DueDelivery => ({
  delivery: { id: r.id, attempts: r.attempts, nextAttemptAt: r.nextAttemptAt },
  endpoint: {
    id: r.endpointId,
    programId: r.programId,
    url: r.url,
    secret: r.secret,
    previousSecret: r.previousSecret,
    previousUntil: r.previousUntil,
    active: r.active === 1,
    failingSince: r.failingSince,
  },
  event: { eventId: r.eventId, type: r.type, body: r.body },
})

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
        "UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = NULL, status = 'delivered', delivered_at = ? WHERE id = ? AND status = 'pending'",
      ),
      retry: client.prepare(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = ?, next_attempt_at = ? WHERE id = ? AND status = 'pending'",
      ),
      dueEndpoints: client.prepare(
        `SELECT e.id, e.program_id AS programId FROM webhook_endpoints e WHERE e.active = 1 AND e.deleted_at IS NULL
         AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ?)`,
      ),
      claimOf: client.prepare(
        `${DUE_SELECT} WHERE d.endpoint_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ? AND (d.next_attempt_at, d.id) > (?, ?)
         AND e.active = 1 ORDER BY d.next_attempt_at, d.id LIMIT ?`,
      ),
      deliveryById: client.prepare(`${DUE_SELECT} WHERE d.id = ?`),
      failed: client.prepare(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, claimed_until = NULL, last_status_code = ?, last_error = ?, status = 'failed' WHERE id = ? AND status = 'pending'",
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

  /** Told once the batch that recorded events has committed: the server wakes the pool with it. */
  onRecorded: (() => void) | null = null

  /**
   * Records an event and a delivery to each endpoint given, due at `dueAt` (at once unless the
   * test route attempts it itself); answers the event's `evt_…` id. `body` is the exact JSON
   * sent on every attempt.
   */
  recordEvent(
    programId: number,
    type: WebhookEventType,
    body: (eventId: string) => string,
    endpointIds: number[],
    now: number,
    dueAt = now,
  ): string {
    // Time first (12 hex digits of ms), then 80 random bits: the UNIQUE index on event_id grows at
    // its end instead of taking a random page per event.
    const eventId = `evt_${now.toString(16).padStart(12, '0')}${randomBytes(10).toString('base64url')}`
    const event = this.s.event.get(eventId, programId, type, body(eventId), now) as { id: number }
    for (const endpointId of endpointIds) this.s.delivery.run(endpointId, event.id, dueAt, now)
    // The first attempt follows the commit at once rather than at the next poll.
    if (this.onRecorded) this.connection.writer.afterBatch(this.onRecorded)
    return eventId
  }

  /**
   * The active endpoints with a delivery due at `now`, with their program (a read outside the
   * writer: an idle server writes nothing). Each endpoint's check is one seek of the partial index
   * of pending deliveries.
   */
  dueEndpoints(now: number): { id: number; programId: number }[] {
    return this.s.dueEndpoints.all(now) as { id: number; programId: number }[]
  }

  /**
   * Up to `limit` deliveries of one active endpoint due at `now`, in due order after `after` (the
   * last one a previous claim took; null: from the first), with the endpoint and the event.
   * Nothing is written: the pool (src/outbox/webhooks/pool.ts) is the one reader, keeps what it
   * holds in memory until its attempt is recorded, and a crash leaves nothing claimed (a lease row
   * per delivery cost the sale path a write).
   */
  claimOf(endpointId: number, now: number, after: { at: number; id: number } | null, limit: number): DueDelivery[] {
    return (this.s.claimOf.all(endpointId, now, after?.at ?? Number.MIN_SAFE_INTEGER, after?.id ?? 0, limit) as DueRow[]).map(dueDelivery)
  }

  /** One delivery with what sending it takes, whether due or not (the test route's), or null. */
  dueDelivery(deliveryId: number): DueDelivery | null {
    const row = this.s.deliveryById.get(deliveryId) as DueRow | null
    return row ? dueDelivery(row) : null
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
