import { presentRow } from '../domain/record.ts'
import type { TrackingDeps } from './deps.ts'
import { emitEvent } from './webhook-events.ts'

/** Why a payout rail could not pay: the rail's own code (`INSUFFICIENT_FUNDS`, `account_closed`…) and words. */
export interface PayoutFailure {
  code: string
  message: string
}

/**
 * The one place a failed payout is told (docs/webhooks.md, `payout.failed`): the payout rails
 * (src/payouts/send.ts) call it in the writer unit that records the failure, when a rail refuses or
 * returns a payout. Emits `payout.failed` with the payout as `GET …/payouts` lists it and a
 * `failure` object; the payout's status is the rail's to change, not this function's. Answers
 * false for an unknown payout (nothing emitted).
 */
export function payoutFailedInUnit(deps: TrackingDeps, payoutId: number, failure: PayoutFailure): boolean {
  const payout = deps.database.stores.payouts.findPayout(payoutId)
  if (!payout) return false
  const reason = { code: failure.code.slice(0, 100), message: failure.message.slice(0, 500) }
  emitEvent(deps, payout.programId, 'payout.failed', () => ({ ...presentRow('payout', payout), failure: reason }))
  return true
}

/** payoutFailedInUnit in a writer unit of its own. */
export function payoutFailed(deps: TrackingDeps, payoutId: number, failure: PayoutFailure): Promise<boolean> {
  return deps.database.writer.run(() => payoutFailedInUnit(deps, payoutId, failure))
}
