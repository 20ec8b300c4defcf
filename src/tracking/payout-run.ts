import type { Payout } from '../db/schema.ts'
import { minimumPayoutOf } from '../domain/currency.ts'
import { dueEntries, planPayouts } from '../domain/payout.ts'
import { presentRow } from '../domain/record.ts'
import type { Actor } from '../domain/audit.ts'
import type { TrackingDeps } from './deps.ts'
import { emitEvent } from './webhook-events.ts'

/**
 * A payout run in one writer unit (docs/decisions.md, Payouts): what it reads as due up to
 * `until` (the end of `now` when null) is what it writes, runs queued together see each other's
 * payouts (the UNIQUE index payout_entries_once is the last word), and each payout made is a
 * `payout.created` event and a `payout.run` audit entry by `by` of the same unit. Answers the
 * payouts made; null when no such program.
 */
export function runPayouts(deps: TrackingDeps, by: Actor, programId: number, until: number | null): Promise<Payout[] | null> {
  const store = deps.database.stores.payouts
  return deps.database.writer.run(() => {
    const terms = store.findTerms(programId)
    if (!terms) return null
    const now = deps.clock.now()
    const due = dueEntries(store.unpaidLedger(programId), terms.holdingPeriodDays, now, until ?? now)
    const made = store.createPayouts(
      programId,
      planPayouts(due, (currency) => minimumPayoutOf(terms, currency)),
      now,
    )
    for (const payout of made) {
      emitEvent(deps, programId, 'payout.created', () => presentRow('payout', payout))
      const details = { partner_id: payout.partnerId, amount_cents: payout.amountCents, currency: payout.currency }
      deps.database.stores.audit.write(by, now, { program: programId, action: 'payout.run', object: ['payout', payout.id], details })
    }
    return made
  })
}
