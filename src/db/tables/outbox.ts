// Work after a commit (src/outbox/README.md): the email outbox and outbound webhooks.
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { attemptColumns, bool, createdAt } from './shared.ts'
import { programs } from './programs.ts'

/** What an email is about (src/outbox/messages.ts writes each). */
export const EMAIL_KINDS = [
  'application_received',
  'application_approved',
  'application_rejected',
  'new_application',
  'payout_paid',
  'sign_in',
  'webhook_disabled',
] as const
export type EmailKind = (typeof EMAIL_KINDS)[number]

/**
 * The email outbox (src/outbox/README.md): a row is written in the transaction of the change that
 * causes it and sent after the commit by the server's sender, which claims due rows for a lease,
 * records each attempt and schedules the next (docs/decisions.md, Email). `to_address` is always an
 * address stored on an account or partner. A body holding a sign-in link (`secret`) is blanked
 * once sent: the link itself is kept nowhere else but as a hash.
 */
export const emails = sqliteTable(
  'emails',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id').references(() => programs.id),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    secret: bool('secret').notNull().default(false),
    status: text('status', { enum: ['queued', 'sent', 'logged', 'failed'] })
      .notNull()
      .default('queued'),
    ...attemptColumns(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: integer('sent_at'),
  },
  (t) => [index('emails_due').on(t.status, t.nextAttemptAt), index('emails_program').on(t.programId, t.id)],
)

/** Outbound webhook event types (docs/decisions.md, Outbound webhooks; the turn-4 three of Webhook delivery). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'sale.created',
  'sale.refunded',
  'commission.created',
  'commission.reversed',
  'commission.held',
  'commission.approved',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'partner.created',
  'partner.applied',
  'partner.approved',
  'webhook.test',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/**
 * A program's webhook endpoints. `secret` signs (whsec_ + base64 of 32 bytes); during a rotation
 * `previous_secret` signs too until `previous_until`. `failing_since` is the first failure of an
 * unbroken run of them: 3 days of it set the endpoint inactive.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    url: text('url').notNull(),
    events: text('events', { mode: 'json' }).$type<WebhookEventType[]>().notNull(),
    description: text('description'),
    active: bool('active').notNull().default(true),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousUntil: integer('previous_until'),
    failingSince: integer('failing_since'),
    disabledAt: integer('disabled_at'),
    deletedAt: integer('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_program').on(t.programId)],
)

/**
 * One event (`evt_…`, the same on every attempt): its type and the exact JSON body sent. An event
 * of a change is written alone in the change's unit, with `endpoints`, the ids of the endpoints
 * subscribed to it then; its deliveries are written after the commit, in bulk, by the pool
 * (WebhookStore.writeDeliveries), which keeps how far it got in `settings` (DELIVERIES_WRITTEN):
 * a delivery row per event cost the sale path as much again as the event (issue 35). `endpoints`
 * is null for an event whose delivery was written with it (the test route's).
 *
 * The sale path's events (`sale.created`, `commission.created`, `commission.held`) keep no body
 * (''): `subject` is the sale's or the entry's id and `facts` what of it may change later, as it
 * was (src/tracking/webhook-events.ts); the body is built from them for each attempt, the same
 * bytes every time. Building and storing each body cost a commissioned sale a third again.
 *
 * The row ids are SQLite's (max + 1, never reused, since no event is ever deleted), as the clicks':
 * AUTOINCREMENT wrote sqlite_sequence after every event (issue 35). DELIVERIES_WRITTEN counts on
 * them growing with every event committed, which one writer and no deletion make so.
 */
export const webhookEvents = sqliteTable('webhook_events', {
  id: integer('id').primaryKey(),
  // Unique by its making (the time, then 84 random bits) and never looked up: no index to write.
  eventId: text('event_id').notNull(),
  programId: integer('program_id')
    .notNull()
    .references(() => programs.id),
  type: text('type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
  endpoints: text('endpoints', { mode: 'json' }).$type<number[]>(),
  subject: integer('subject'),
  facts: text('facts'),
})

/** The `settings` key of the last event whose deliveries are written (every event up to it has them). */
export const DELIVERIES_WRITTEN = 'webhook_deliveries_written'

/**
 * The webhook outbox (src/outbox/README.md): one delivery per event and subscribed endpoint,
 * written after the event's transaction (webhookEvents); UNIQUE (endpoint, event) so that an event reaches an
 * endpoint through one row, whatever retries happen.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    ...attemptColumns(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: integer('delivered_at'),
  },
  // Both indexes grow at their end as events are made (event rows and times only increase), so
  // that a delivery's insert writes no random page at COMMIT; an endpoint's list reads its index.
  // The pool (src/outbox/webhooks/pool.ts) claims each endpoint's due deliveries in turn: the partial
  // index holds only the pending ones, by endpoint, so that a claim is one seek however many
  // deliveries other endpoints have waiting or an endpoint has delivered (issue 35).
  (t) => [
    uniqueIndex('webhook_deliveries_once').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.id),
    index('webhook_deliveries_pending').on(t.endpointId, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
)
