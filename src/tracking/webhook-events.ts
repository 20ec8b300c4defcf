import type { WebhookEventType } from '../db/schema.ts'
import type { SubjectEvent } from '../db/webhook-store.ts'
import { presentRow } from '../domain/record.ts'
import { iso } from '../domain/time.ts'
import type { TrackingDeps } from './deps.ts'

/** An event's body: `{ type, timestamp, data }`, `data` with its `program_id` (docs/decisions.md, Outbound webhooks). */
const eventBody = (type: WebhookEventType, at: number, programId: number, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp: iso(at), data: { ...data, program_id: programId } })

/** The endpoints of the program that take `type`, from the catalog (one in-memory lookup). */
function subscribed(deps: TrackingDeps, programId: number, type: WebhookEventType): number[] {
  const ids: number[] = []
  for (const e of deps.database.stores.webhooks.subscribers(programId)) if (e.events.includes(type)) ids.push(e.id)
  return ids
}

/**
 * Records an event for the program's active endpoints that take `type`, inside the caller's
 * writer unit (docs/decisions.md, Outbound webhooks: events enter the outbox in the same
 * transaction as the change). The body is `{ type, timestamp, data }`, `data` the object the
 * operator read route shows, with `program_id`. A program without such an endpoint pays one
 * in-memory lookup: `data` is not even built.
 */
export function emitEvent(
  deps: TrackingDeps,
  programId: number,
  type: WebhookEventType,
  data: () => Record<string, unknown>,
): string | null {
  const endpoints = subscribed(deps, programId, type)
  if (endpoints.length === 0) return null
  const now = deps.clock.now()
  return deps.database.stores.webhooks.recordEvent(programId, type, { body: eventBody(type, now, programId, data()) }, endpoints, now)
}

/** What of a commission entry its events state as it was when booked (its review may change later). */
interface CommissionFacts {
  status: string
  review: string | null
}

/**
 * The sale path's events, kept without a body (src/db/tables/outbox.ts): `sale.created` of a sale
 * just recorded, `commission.created` and `commission.held` of an entry just booked, with the
 * entry's status then. The body is built by subjectEventBody for each attempt, the same bytes
 * emitEvent would have stored: a sale's only later change is its status (refunds), an entry's
 * its review, and both are stated as they were.
 */
export function emitSubjectEvent(
  deps: TrackingDeps,
  programId: number,
  type: 'sale.created' | 'commission.created' | 'commission.held',
  subject: number,
  facts: CommissionFacts | null,
): string | null {
  const endpoints = subscribed(deps, programId, type)
  if (endpoints.length === 0) return null
  const now = deps.clock.now()
  const content = { subject, facts: facts && JSON.stringify({ status: facts.status, review: facts.review }) }
  return deps.database.stores.webhooks.recordEvent(programId, type, content, endpoints, now)
}

/** The body of an event emitSubjectEvent recorded, as of the event's time. */
export function subjectEventBody(deps: TrackingDeps, event: SubjectEvent): string {
  const { sales } = deps.database.stores
  if (event.type === 'sale.created') {
    const sale = sales.saleById(event.subject)
    if (!sale) throw new Error(`sale ${event.subject} of event ${event.type} not found`)
    return eventBody(event.type, event.createdAt, event.programId, presentRow('sale', { ...sale, status: 'recorded' }))
  }
  const entry = sales.entry(event.subject)
  if (!entry) throw new Error(`ledger entry ${event.subject} of event ${event.type} not found`)
  const facts = JSON.parse(event.facts ?? '{}') as CommissionFacts
  const booked = { ...entry, review: facts.review, reviewedAt: null, reviewReason: null }
  return eventBody(event.type, event.createdAt, event.programId, { ...presentRow('commission', booked), status: facts.status })
}
