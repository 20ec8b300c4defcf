import { randomBytes } from 'node:crypto'
import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { type WebhookEventType, webhookDeliveries, webhookEndpoints, webhookEvents } from './schema.ts'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type DeliveryStatus = WebhookDelivery['status']

/** A claimed delivery with what sending it takes: the endpoint's URL and secrets, the event's id and body. */
export interface DueDelivery {
  delivery: WebhookDelivery
  endpoint: Pick<WebhookEndpoint, 'id' | 'programId' | 'url' | 'secret' | 'previousSecret' | 'previousUntil' | 'active'>
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
  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {}

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
  recordEvent(programId: number, type: WebhookEventType, body: (eventId: string) => string, endpointIds: number[], now: number): string {
    const { db } = this.connection
    const eventId = `evt_${randomBytes(16).toString('base64url')}`
    const event = db
      .insert(webhookEvents)
      .values({ eventId, programId, type, body: body(eventId), createdAt: now })
      .returning({ id: webhookEvents.id })
      .get()
    if (endpointIds.length > 0) {
      db.insert(webhookDeliveries)
        .values(endpointIds.map((endpointId) => ({ endpointId, eventId: event.id, nextAttemptAt: now, createdAt: now })))
        .run()
    }
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

  /** Claims up to `limit` due deliveries of active endpoints for `leaseMs`, with their endpoint and event. */
  claim(now: number, leaseMs: number, limit: number): DueDelivery[] {
    const { db } = this.connection
    const rows = db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          eq(webhookEndpoints.active, true),
          or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, now)),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit)
      .all()
    if (rows.length === 0) return []
    db.update(webhookDeliveries)
      .set({ claimedUntil: now + leaseMs })
      .where(
        inArray(
          webhookDeliveries.id,
          rows.map((r) => r.delivery.id),
        ),
      )
      .run()
    return rows.map(({ delivery, endpoint, event }) => ({
      delivery,
      endpoint,
      event: { eventId: event.eventId, type: event.type, body: event.body },
    }))
  }

  /** Releases every claim: at start, the one process that sends is this one. */
  releaseClaims(): void {
    this.connection.db.update(webhookDeliveries).set({ claimedUntil: null }).where(eq(webhookDeliveries.status, 'pending')).run()
  }

  /** Records an attempt. `next` null on a failure makes the delivery `failed` for good. */
  recordAttempt(
    id: number,
    outcome: { ok: boolean; statusCode: number | null; error: string | null; next: number | null },
    now: number,
  ): void {
    this.connection.db
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        claimedUntil: null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error?.slice(0, 300) ?? null,
        ...(outcome.ok
          ? { status: 'delivered' as const, deliveredAt: now }
          : outcome.next === null
            ? { status: 'failed' as const }
            : { nextAttemptAt: outcome.next }),
      })
      .where(eq(webhookDeliveries.id, id))
      .run()
  }

  /**
   * Notes an endpoint's attempt: a success ends its run of failures; a failure starts one when
   * none runs. Answers when the run began (null after a success).
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
    return db.select({ since: webhookEndpoints.failingSince }).from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get()?.since ?? now
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
