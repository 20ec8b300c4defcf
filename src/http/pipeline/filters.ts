import type { TimeRange } from '../../db/list-store.ts'
import type { PartnerFilter } from '../../db/partner-store.ts'
import { PARTNER_STATUSES, type PartnerStatus } from '../../db/schema.ts'
import { filters, partner } from '../../domain/messages.ts'
import type { CommissionStatus } from '../../domain/payout.ts'
import { HttpError } from './envelope.ts'

type Query = Record<string, string | undefined>
const DAY_MS = 86_400_000

/**
 * A bound of ?from= or ?to=: a date (YYYY-MM-DD, a whole UTC day) or a date-time. Answers the
 * first millisecond the bound takes in, and the first it leaves out for `to` (both inclusive).
 */
function bound(value: string, end: boolean, message: string): number {
  const dateOnly = value.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(value)
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(ms) || !(dateOnly || /^\d{4}-\d{2}-\d{2}T/.test(value))) throw new HttpError(400, message)
  return end ? ms + (dateOnly ? DAY_MS : 1) : ms
}

/** ?from= and ?to= (ISO 8601 dates, inclusive, UTC): the 400 naming the field otherwise. */
export function timeRangeOf(query: Query): TimeRange {
  return {
    from: query.from ? bound(query.from, false, filters.from) : undefined,
    to: query.to ? bound(query.to, true, filters.to) : undefined,
  }
}

/** ?status=, ?q= and ?group_id= of the partner lists. */
export function partnerFilterOf(query: Query): PartnerFilter {
  const status = query.status
  if (status !== undefined && !(PARTNER_STATUSES as readonly string[]).includes(status)) throw new HttpError(400, partner.status)
  if (query.q !== undefined && query.q.length > 200) throw new HttpError(400, filters.q)
  const groupId = query.group_id === undefined || query.group_id === '' ? undefined : Number(query.group_id)
  if (groupId !== undefined && !(Number.isSafeInteger(groupId) && groupId > 0)) throw new HttpError(400, filters.groupId)
  return { status: status as PartnerStatus | undefined, q: query.q?.trim() || undefined, groupId }
}

const COMMISSION_STATUSES: CommissionStatus[] = ['pending', 'due', 'in_payout', 'paid', 'reversed', 'held']

/** ?status= of the commission read route and CSV, or undefined. */
export function commissionStatusOf(query: Query): CommissionStatus | undefined {
  const status = query.status
  if (status !== undefined && !(COMMISSION_STATUSES as string[]).includes(status)) throw new HttpError(400, filters.commissionStatus)
  return status as CommissionStatus | undefined
}

/** ?actor= (part of who), ?action= (an action, or its object's prefix such as `payout.`) and ?from=/?to= of the audit log. */
export function auditFilterOf(query: Query): { actor?: string; action?: string; from?: number; to?: number } {
  const actor = query.actor?.trim()
  const action = query.action?.trim()
  if (actor !== undefined && actor.length > 254) throw new HttpError(400, 'actor must be at most 254 characters')
  if (action !== undefined && action !== '' && !/^[a-z_]+\.(?:[a-z_]+)?$/.test(action))
    throw new HttpError(400, 'action must be an action such as payout.paid, or its prefix such as payout.')
  return { actor: actor || undefined, action: action || undefined, ...timeRangeOf(query) }
}
