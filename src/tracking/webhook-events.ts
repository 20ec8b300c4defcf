import type { WebhookEventType } from '../db/schema.ts'
import { iso } from '../domain/time.ts'
import type { TrackingDeps } from './deps.ts'

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
  const { webhooks } = deps.database.stores
  const endpoints = webhooks.subscribers(programId).filter((e) => e.events.includes(type))
  if (endpoints.length === 0) return null
  const now = deps.clock.now()
  const body = JSON.stringify({ type, timestamp: iso(now), data: { ...data(), program_id: programId } })
  return webhooks.recordEvent(
    programId,
    type,
    () => body,
    endpoints.map((e) => e.id),
    now,
  )
}
