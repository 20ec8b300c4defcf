import { type CommissionStatus, entryStatus } from '../domain/payout.ts'
import type { TrackingDeps } from './deps.ts'

/**
 * The status of each of the given ledger entries of a program at `now` (the commissions read
 * route shows it beside each entry).
 */
export function commissionStatuses(deps: TrackingDeps, programId: number, entryIds: number[]): Map<number, CommissionStatus> {
  const store = deps.database.stores.payouts
  const terms = store.findTerms(programId)
  const now = deps.clock.now()
  const statuses = new Map<number, CommissionStatus>()
  if (!terms) return statuses
  for (const row of store.ledgerOf(entryIds)) statuses.set(row.id, entryStatus(row, terms.holdingPeriodDays, now))
  return statuses
}
