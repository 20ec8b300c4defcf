import type { Actor } from '../../domain/audit.ts'
import { type PayoutRail, RAIL_VARIABLES } from '../../domain/payout-method.ts'
import { payout as messages } from '../../domain/messages.ts'
import { recordSends, type SendPlan } from '../../payouts/send.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../pipeline/envelope.ts'

/**
 * Records the sends of a program's pending payouts (src/payouts/send.ts) and wakes the sender;
 * the 400 naming `rail` when this server has no credentials for it. Used by the operator API and
 * the dashboard's "Send with …" buttons.
 */
export async function sendPayouts(deps: Deps, by: Actor, programId: number, rail: PayoutRail, payoutIds?: number[]): Promise<SendPlan> {
  const configured = deps.payoutRails[rail]
  if (!configured) throw new HttpError(400, messages.railOff(rail, RAIL_VARIABLES[rail]))
  const plan = await recordSends(deps, by, configured, programId, payoutIds)
  if (plan.groups.length > 0) deps.payoutSender.wake()
  return plan
}
