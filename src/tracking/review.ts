import type { Actor } from '../domain/audit.ts'
import type { TrackingDeps } from './deps.ts'
import { commissionData } from './sale.ts'
import { emitEvent } from './webhook-events.ts'

export type ReviewOutcome =
  | { kind: 'reviewed'; commission: Record<string, unknown> }
  /** No ledger entry with that id (in the caller's program, when it names one). */
  | { kind: 'not_found' }
  /** The entry is not a held commission: never held, already reviewed, or reversed by a refund. */
  | { kind: 'not_held' }

export type ReviewDecision = { action: 'approve' } | { action: 'reject'; reason: string | null }

/**
 * Reviews a held commission in one writer unit (docs/decisions.md, Fraud signals and review).
 * Approve puts it back on the holding-period path: `pending` or `due`, counted from its creation.
 * Reject writes its reversal entry (a negative amount, in the partner's hash chain like a
 * refund's), so that it is `reversed` and never paid; `commission.reversed` carries the reversal.
 * An approval emits `commission.approved` with the commission as it now stands.
 * `programId` scopes the lookup (a program key, an owner's program); null is the operator's.
 * Answers the commission as the read route shows it. `by` is written to the audit log in the same unit.
 */
export function reviewCommission(
  deps: TrackingDeps,
  by: Actor,
  programId: number | null,
  commissionId: number,
  decision: ReviewDecision,
): Promise<ReviewOutcome> {
  const { sales } = deps.database.stores
  return deps.database.writer.run((): ReviewOutcome => {
    const entry = sales.entry(commissionId)
    if (!entry || (programId !== null && entry.programId !== programId)) return { kind: 'not_found' }
    const now = deps.clock.now()
    const outcome = decision.action === 'approve' ? 'approved' : 'rejected'
    // Only a held commission changes (review 'held' is status held: a refund takes the hold away).
    if (!sales.review(entry.id, outcome, decision.action === 'reject' ? decision.reason : null, now)) return { kind: 'not_held' }
    const money = { partner_id: entry.partnerId, amount_cents: entry.amountCents, currency: entry.currency }
    deps.database.stores.audit.write(by, now, {
      program: entry.programId,
      action: decision.action === 'approve' ? 'commission.approve' : 'commission.reject',
      object: ['commission', entry.id],
      details: decision.action === 'reject' ? { ...money, reason: decision.reason } : money,
    })
    if (decision.action === 'reject') {
      const reversal = sales.insertCommission({
        programId: entry.programId,
        saleId: entry.saleId,
        partnerId: entry.partnerId,
        kind: 'reversal',
        amountCents: -entry.amountCents,
        currency: entry.currency,
        testMode: entry.testMode,
        createdAt: now,
        dueAt: now,
      })
      emitEvent(deps, entry.programId, 'commission.reversed', () => commissionData(deps, sales.entry(reversal)!))
    }
    const commission = commissionData(deps, sales.entry(entry.id)!)
    if (decision.action === 'approve') emitEvent(deps, entry.programId, 'commission.approved', () => commission)
    return { kind: 'reviewed', commission }
  })
}
