import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { DELIVERIES_WRITTEN, type WebhookEventType, webhookDeliveries, webhookEndpoints, webhookEvents } from './schema.ts'

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type DeliveryStatus = WebhookDelivery['status']

/** A claimed delivery with what sending it takes: the endpoint's URL and secrets, the event's id and body. */
export interface DueDelivery {
  delivery: Pick<WebhookDelivery, 'id' | 'attempts' | 'nextAttemptAt'>
  endpoint: Pick<WebhookEndpoint, 'id' | 'programId' | 'url' | 'secret' | 'previousSecret' | 'previousUntil' | 'active' | 'failingSince'>
  event: { eventId: string; type: WebhookEventType; body: string }
}

/** How many events' deliveries one writer unit writes (writeDeliveries): a few milliseconds of work. */
export const WRITE_EVENTS = 2_000

let randomChars = ''
let randomAt = 0
let hexAt = -1
let hex = ''

/** An event's id: its ms in 12 hex digits, 14 random base64url characters (84 bits, drawn 4 KB at a time: issue 35). */
function newEventId(now: number): string {
  if (randomAt + 14 > randomChars.length) {
    randomChars = randomBytes(3072).toString('base64url')
    randomAt = 0
  }
  randomAt += 14
  if (now !== hexAt) hex = (hexAt = now).toString(16).padStart(12, '0')
  return `evt_${hex}${randomChars.slice(randomAt - 14, randomAt)}`
}

/**
 * What an event holds: its body, or (the sale path's events, src/db/tables/outbox.ts) the id of
 * the sale or entry it is about and the facts of it that may change later, as they were.
 */
export type EventContent = { body: string } | { subject: number; facts: string | null }

/** An event kept without its body, as the body's builder (src/tracking/webhook-events.ts) reads it. */
export interface SubjectEvent {
  type: WebhookEventType
  programId: number
  subject: number
  facts: string | null
  createdAt: number
}

// What an attempt needs of a delivery, its endpoint and its event: one statement, prepared once.
const DUE_SELECT = `SELECT d.id, d.attempts, d.next_attempt_at AS nextAttemptAt, e.id AS endpointId, e.program_id AS programId,
  e.url, e.secret, e.previous_secret AS previousSecret, e.previous_until AS previousUntil, e.active, e.failing_since AS failingSince,
  v.event_id AS eventId, v.type, v.body, v.subject, v.facts, v.created_at AS eventAt
FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events v ON v.id = d.event_id`

type DueRow = Omit<DueDelivery['delivery'] & DueDelivery['endpoint'] & DueDelivery['event'], 'id' | 'active'> & {
  id: number
  endpointId: number
  active: number
  subject: number | null
  facts: string | null
  eventAt: number
}

const dueDelivery = (r: DueRow, bodyOf: (event: SubjectEvent) => string): DueDelivery => ({
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
  event: {
    eventId: r.eventId,
    type: r.type,
    body:
      r.subject === null
        ? r.body
        : bodyOf({ type: r.type, programId: r.programId, subject: r.subject, facts: r.facts, createdAt: r.eventAt }),
  },
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
        'INSERT INTO webhook_events (event_id, program_id, type, body, created_at, endpoints, subject, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      heldEvent: client.prepare(
        'INSERT INTO webhook_events (event_id, program_id, type, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      ),
      lastEvent: client.prepare('SELECT coalesce(max(id), 0) AS id FROM webhook_events'),
      written: client.prepare(`SELECT CAST(value AS INTEGER) AS id FROM settings WHERE key = '${DELIVERIES_WRITTEN}'`),
      setWritten: client.prepare(
        `INSERT INTO settings (key, value) VALUES ('${DELIVERIES_WRITTEN}', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      // Each event's endpoints then: due at once, or failed for an endpoint deleted since. OR IGNORE
      // keeps a chunk written again (by hand, or after a restore of the settings row) from failing.
      writeDeliveries: client.prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (endpoint_id, event_id, status, next_attempt_at, created_at, last_error)
         SELECT e.id, v.id, CASE WHEN e.deleted_at IS NULL THEN 'pending' ELSE 'failed' END, v.created_at, v.created_at,
           CASE WHEN e.deleted_at IS NULL THEN NULL ELSE 'endpoint deleted' END
         FROM webhook_events v JOIN json_each(v.endpoints) j JOIN webhook_endpoints e ON e.id = j.value
         WHERE v.id > ? AND v.id <= ? AND v.endpoints IS NOT NULL ORDER BY v.id, j.key`,
      ),
      delivery: client.prepare(
        'INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      ),
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

  /** Builds the body of an event kept without one (set by the server: src/tracking/webhook-events.ts). */
  bodyOf: (event: SubjectEvent) => string = () => {
    throw new Error('no builder of webhook event bodies')
  }

  /**
   * Records an event for the endpoints given (those subscribed to it now); answers its `evt_…`
   * id. Its body is the exact JSON sent on every attempt, or is built for each attempt from its
   * subject and facts. One row in the caller's unit: the deliveries are written after the commit
   * by writeDeliveries (the pool, or a read that lists them), each due at the event's time.
   */
  recordEvent(programId: number, type: WebhookEventType, content: EventContent, endpointIds: number[], now: number): string {
    const eventId = newEventId(now)
    const endpoints = JSON.stringify(endpointIds)
    if ('body' in content) this.s.event.run(eventId, programId, type, content.body, now, endpoints, null, null)
    else this.s.event.run(eventId, programId, type, '', now, endpoints, content.subject, content.facts)
    // The first attempt follows the commit at once rather than at the next poll.
    if (this.onRecorded) this.connection.writer.afterBatch(this.onRecorded)
    return eventId
  }

  /**
   * Records an event and its one delivery together, due at `dueAt` (the test route's: it attempts
   * the delivery itself and leaves it to the pool only after its time); answers the delivery's id.
   */
  recordHeldEvent(programId: number, type: WebhookEventType, body: string, endpointId: number, now: number, dueAt: number): number {
    const event = this.s.heldEvent.get(newEventId(now), programId, type, body, now) as { id: number }
    return (this.s.delivery.get(endpointId, event.id, dueAt, now) as { id: number }).id
  }

  /** The last event recorded, and the last one whose deliveries are written (a read outside the writer). */
  progress(): { last: number; written: number } {
    const last = (this.s.lastEvent.get() as { id: number }).id
    const written = (this.s.written.get() as { id: number } | null)?.id ?? 0
    return { last, written }
  }

  /**
   * Writes the deliveries of the next events, at most `limit` of them and none after `upTo`, in
   * the caller's writer unit; answers whether any remain. Run by the pool before it claims, and by
   * the routes that list deliveries, so that an event recorded is a pending delivery wherever one
   * looks; idempotent, and an event is never skipped: its row's id is at most `last` once committed.
   */
  writeDeliveries(limit: number, upTo = Number.MAX_SAFE_INTEGER): boolean {
    const { last, written } = this.progress()
    const end = Math.min(last, upTo, written + limit)
    if (end <= written) return false
    this.s.writeDeliveries.run(written, end)
    this.s.setWritten.run(String(end))
    return end < Math.min(last, upTo)
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
    return (this.s.claimOf.all(endpointId, now, after?.at ?? Number.MIN_SAFE_INTEGER, after?.id ?? 0, limit) as DueRow[]).map((r) =>
      dueDelivery(r, this.bodyOf),
    )
  }

  /** One delivery with what sending it takes, whether due or not (the test route's), or null. */
  dueDelivery(deliveryId: number): DueDelivery | null {
    const row = this.s.deliveryById.get(deliveryId) as DueRow | null
    return row ? dueDelivery(row, this.bodyOf) : null
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

  /** One delivery as the deliveries route lists it, or null. */
  listedDelivery(id: number): ListedDelivery | null {
    const row = this.connection.db
      .select({ delivery: webhookDeliveries, eventKey: webhookEvents.eventId, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, id))
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
