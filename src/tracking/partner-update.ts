import type { Partner, PartnerChanges } from '../db/partner-store.ts'
import type { Actor } from '../domain/audit.ts'
import type { TrackingDeps } from './deps.ts'
import { changesOf } from './audit.ts'

/**
 * Changes a partner inside the caller's writer unit, with its `partner.update` audit entry when
 * anything changed: who is paid how much (terms, group) and where the money goes (payout method and
 * details) are money (docs/decisions.md, Teams and the audit log), whoever changes them: a member,
 * the operator, or the partner in the portal. Answers the partner, or null when it is not the program's.
 */
export function updatePartnerInUnit(
  deps: TrackingDeps,
  by: Actor,
  programId: number,
  partnerId: number,
  changes: PartnerChanges,
): Partner | null {
  const { stores } = deps.database
  const before = stores.partners.find(programId, partnerId)
  if (!before) return null
  const after = stores.partners.update(programId, partnerId, changes)
  if (!after) return null
  const details = changesOf(before, changes)
  if (Object.keys(details).length > 0)
    stores.audit.write(by, deps.clock.now(), { program: programId, action: 'partner.update', object: ['partner', partnerId], details })
  return after
}
