import type { Commission } from '../db/schema.ts'
import { termsFor } from '../domain/attribution.ts'
import type { Actor } from '../domain/audit.ts'
import { MAX_CENTS } from '../domain/commission.ts'
import { dueAtOf } from '../domain/payout.ts'
import type { TrackingDeps } from './deps.ts'
import { commissionData } from './sale.ts'
import { emitEvent } from './webhook-events.ts'

/** A bonus as the owner asks for it; the fields are checked by the caller's schema, the rest here. */
export interface BonusInput {
  amountCents: number
  currency: string
  description: string
}

export type BonusOutcome =
  | { kind: 'booked'; entry: Commission; data: Record<string, unknown> }
  | { kind: 'not_found'; what: 'program' | 'partner' }
  /** The currency is not one the program's sales may carry. */
  | { kind: 'currency' }
  /** The partner's unpaid balance in the currency would pass MAX_CENTS (docs/decisions.md, Hostile input). */
  | { kind: 'too_large' }

/**
 * Books a bonus for a partner in one writer unit (docs/decisions.md, Groups: bonuses): a ledger
 * entry of kind `bonus` with no sale, chained in the partner's statement, due after the holding
 * period of the partner's terms (partner → group → program) fixed now, paid out with the rest,
 * and announced as `commission.created` with kind `bonus`.
 */
export function bookBonus(deps: TrackingDeps, by: Actor, programId: number, partnerId: number, input: BonusInput): Promise<BonusOutcome> {
  const { stores } = deps.database
  return deps.database.writer.run((): BonusOutcome => {
    const program = stores.programs.findProgram(programId)
    if (!program) return { kind: 'not_found', what: 'program' }
    const partner = stores.partners.find(programId, partnerId)
    if (!partner) return { kind: 'not_found', what: 'partner' }
    // A currency the program's sales may carry (docs/decisions.md, Selling anywhere: the program's currencies).
    if (!program.currencies.includes(input.currency)) return { kind: 'currency' }
    const unpaid = stores.sales.unpaidCommissionCents(programId, partnerId, input.currency)
    if (unpaid + input.amountCents > MAX_CENTS) return { kind: 'too_large' }
    const own = stores.partners.terms(partnerId)
    const { holdingPeriodDays } = termsFor(program, own, own?.group ?? null)
    const now = deps.clock.now()
    const id = stores.sales.insertCommission({
      programId,
      saleId: null,
      partnerId,
      kind: 'bonus',
      amountCents: input.amountCents,
      currency: input.currency,
      testMode: false,
      createdAt: now,
      dueAt: dueAtOf('bonus', now, holdingPeriodDays),
      description: input.description,
    })
    const entry = stores.sales.entry(id)!
    const data = commissionData(deps, entry)
    const details = { partner_id: partnerId, amount_cents: input.amountCents, currency: input.currency, description: input.description }
    stores.audit.write(by, now, { program: programId, action: 'bonus.create', object: ['commission', id], details })
    emitEvent(deps, programId, 'commission.created', () => data)
    return { kind: 'booked', entry, data }
  })
}
