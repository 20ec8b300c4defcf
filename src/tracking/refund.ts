import type { Program } from '../db/schema.ts'
import { presentRow } from '../domain/record.ts'
import type { TrackingDeps } from './deps.ts'
import { commissionData } from './sale.ts'
import { emitEvent } from './webhook-events.ts'

export interface RefundInput {
  transactionId: string
  reason: 'refund' | 'chargeback'
  refundReason: string | null
}

export type RefundOutcome =
  | { kind: 'refunded'; saleId: number; transactionId: string; status: 'refunded' | 'charged_back'; repeated: boolean }
  | { kind: 'not_found' }

/**
 * Refunds or charges back a sale of the program in one writer unit: the sale changes status and
 * its commission gets a negative reversal entry (never a deleted row, so that a commission
 * already paid out is clawed back). A repeated refund changes nothing and answers the recorded one.
 */
export function recordRefund(deps: TrackingDeps, program: Program, input: RefundInput): Promise<RefundOutcome> {
  return deps.database.writer.run(() => recordRefundInUnit(deps, program, input))
}

/** The refund path inside the caller's writer unit (a processor's refund event shares its unit with the event row). */
export function recordRefundInUnit(deps: TrackingDeps, program: Program, input: RefundInput): RefundOutcome {
  const { sales } = deps.database.stores
  const sale = sales.findSale(program.id, input.transactionId)
  if (!sale) return { kind: 'not_found' }
  const answer = { kind: 'refunded' as const, saleId: sale.id, transactionId: sale.transactionId }
  if (sale.status !== 'recorded') return { ...answer, status: sale.status, repeated: true }
  const now = deps.clock.now()
  sales.recordRefund(sale.id, input.reason, input.refundReason, now)
  emitEvent(deps, program.id, 'sale.refunded', () => presentRow('sale', sales.findSale(program.id, sale.transactionId)!))
  const commission = sales.commissionOf(sale.id)
  // A commission rejected in review has its reversal already: the refund takes nothing more back.
  if (commission && !sales.commissionOf(sale.id, 'reversal')) {
    // A held one waits for no review any more: the refund reverses it (its flags stay).
    if (commission.review === 'held') sales.review(commission.id, null, null, null)
    const reversal = sales.insertCommission({
      programId: program.id,
      saleId: sale.id,
      partnerId: commission.partnerId,
      kind: 'reversal',
      amountCents: -commission.amountCents,
      currency: commission.currency,
      testMode: commission.testMode,
      createdAt: now,
      dueAt: now,
    })
    // docs/decisions.md: commission.reversed carries the reversal entry itself (negative amount).
    emitEvent(deps, program.id, 'commission.reversed', () => commissionData(deps, sales.entry(reversal)!))
  }
  return { ...answer, status: input.reason === 'refund' ? 'refunded' : 'charged_back', repeated: false }
}
