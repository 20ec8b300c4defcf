import type { PayoutChange } from '../db/payout-store.ts'
import type { Payout } from '../db/schema.ts'
import { formatAmount } from '../domain/payout.ts'
import type { Mail } from '../outbox/mail.ts'
import { payoutPaid } from '../outbox/messages.ts'
import { presentRow } from '../domain/record.ts'
import type { Actor } from '../domain/audit.ts'
import type { TrackingDeps } from './deps.ts'
import { emitEvent } from './webhook-events.ts'

/**
 * Marks a pending payout paid in one writer unit and, when it changed now (not a repeat) and the
 * partner has an email, queues the partner's "payout paid" email in the same unit. `programId`,
 * when given, must be the payout's program (the dashboard's own check): otherwise not_found.
 */
export async function markPayoutPaid(
  deps: TrackingDeps,
  mail: Mail,
  by: Actor,
  payoutId: number,
  reference: string | null,
  programId?: number,
): Promise<PayoutChange> {
  const { stores } = deps.database
  const change = await deps.database.writer.run((): PayoutChange & { mailed?: boolean } => {
    const before = stores.payouts.findPayout(payoutId)
    if (!before || (programId !== undefined && before.programId !== programId)) return { kind: 'not_found' }
    const now = deps.clock.now()
    const change = stores.payouts.markPaid(payoutId, reference, now)
    if (change.kind !== 'ok' || before.status !== 'pending') return change
    const details = { partner_id: before.partnerId, amount_cents: before.amountCents, currency: before.currency, reference }
    stores.audit.write(by, now, { program: before.programId, action: 'payout.paid', object: ['payout', payoutId], details })
    return paidNoticesInUnit(deps, mail, change.payout) ? { ...change, mailed: true } : change
  })
  if ('mailed' in change) mail.wake()
  return change
}

/**
 * Cancels a pending payout in one writer unit (its entries are due again), with its `payout.cancel`
 * audit entry by `by`. `programId`, when given, must be the payout's program: otherwise not_found.
 */
export function cancelPayout(deps: TrackingDeps, by: Actor, payoutId: number, programId?: number): Promise<PayoutChange> {
  const { stores } = deps.database
  return deps.database.writer.run((): PayoutChange => {
    const before = stores.payouts.findPayout(payoutId)
    if (!before || (programId !== undefined && before.programId !== programId)) return { kind: 'not_found' }
    const now = deps.clock.now()
    const change = stores.payouts.cancel(payoutId, now)
    if (change.kind !== 'ok' || before.status === 'canceled') return change
    const details = { partner_id: before.partnerId, amount_cents: before.amountCents, currency: before.currency }
    stores.audit.write(by, now, { program: before.programId, action: 'payout.cancel', object: ['payout', payoutId], details })
    return change
  })
}

/**
 * What a payout's becoming paid tells, inside the unit that made it paid (by hand or by a rail,
 * src/payouts/send.ts): the `payout.paid` event and the partner's email. Answers whether an email
 * was queued (the caller wakes the mail sender after the commit).
 */
export function paidNoticesInUnit(deps: TrackingDeps, mail: Mail, payout: Payout): boolean {
  const { stores } = deps.database
  emitEvent(deps, payout.programId, 'payout.paid', () => presentRow('payout', payout))
  const program = stores.programs.findProgram(payout.programId)
  const partner = stores.partners.find(payout.programId, payout.partnerId)
  if (!program || !partner?.email) return false
  const amount = `${payout.currency} ${formatAmount(payout.amountCents, payout.currency)}`
  stores.emails.queue(payoutPaid(program, partner.email, amount, payout.reference, `${mail.baseUrl}/partner`), deps.clock.now())
  return true
}
