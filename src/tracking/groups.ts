import type { GroupChanges } from '../db/group-store.ts'
import type { PartnerGroup, Program } from '../db/schema.ts'
import { type CommissionType, rateFits } from '../domain/commission.ts'
import type { Actor } from '../domain/audit.ts'
import { presentRow } from '../domain/record.ts'
import { changesOf as changedFields } from './audit.ts'
import type { TrackingDeps } from './deps.ts'

/** A group's fields as the API and the dashboard take them; undefined is "leave alone", null "the program's". */
export interface GroupInput {
  name?: string
  commissionType?: CommissionType | null
  commissionRate?: number | null
  recurringMonths?: number | null
  holdingPeriodDays?: number | null
  /** The processor's coupon id and what it gives, or null for no discount. */
  discount?: { couponId: string; description: string } | null
  partnerSignup?: PartnerGroup['partnerSignup']
}

export type GroupOutcome =
  | { kind: 'ok'; group: PartnerGroup }
  | { kind: 'not_found' }
  /** The rate the group would pay (its own, or the program's) does not fit the type it would pay by. */
  | { kind: 'rate' }

/** A group as every read shows it (docs/decisions.md, Groups): its terms (null: the program's), its discount, its partner count. */
export function groupData(group: PartnerGroup, partners?: number): Record<string, unknown> {
  const { discountCouponId, discountDescription, ...rest } = group
  return {
    ...presentRow('group', rest),
    discount: discountCouponId === null ? null : { coupon_id: discountCouponId, description: discountDescription ?? '' },
    ...(partners === undefined ? {} : { partners }),
  }
}

const changesOf = (input: GroupInput): GroupChanges => ({
  name: input.name,
  commissionType: input.commissionType,
  commissionRate: input.commissionRate,
  recurringMonths: input.recurringMonths,
  holdingPeriodDays: input.holdingPeriodDays,
  discountCouponId: input.discount === undefined ? undefined : (input.discount?.couponId ?? null),
  discountDescription: input.discount === undefined ? undefined : (input.discount?.description ?? null),
  partnerSignup: input.partnerSignup,
})

const fits = (program: Program, type: CommissionType | null, rate: number | null) =>
  rateFits(type ?? program.commissionType, rate ?? program.commissionRate)

/** Creates a group of `programId` in one writer unit. */
export function createGroup(deps: TrackingDeps, by: Actor, programId: number, input: GroupInput & { name: string }): Promise<GroupOutcome> {
  const { stores } = deps.database
  return deps.database.writer.run((): GroupOutcome => {
    const program = stores.programs.findProgram(programId)
    if (!program) return { kind: 'not_found' }
    if (!fits(program, input.commissionType ?? null, input.commissionRate ?? null)) return { kind: 'rate' }
    const now = deps.clock.now()
    const group = stores.groups.create({ ...changesOf(input), name: input.name, programId, createdAt: now })
    stores.audit.write(by, now, { program: programId, action: 'group.create', object: ['group', group.id], details: groupData(group) })
    return { kind: 'ok', group }
  })
}

/** Changes a group in one writer unit; `programId`, when given, must be the group's program. */
export function updateGroup(deps: TrackingDeps, by: Actor, groupId: number, input: GroupInput, programId?: number): Promise<GroupOutcome> {
  const { stores } = deps.database
  return deps.database.writer.run((): GroupOutcome => {
    const current = stores.groups.find(groupId, programId)
    const program = current && stores.programs.findProgram(current.programId)
    if (!current || !program) return { kind: 'not_found' }
    const type = input.commissionType === undefined ? current.commissionType : input.commissionType
    const rate = input.commissionRate === undefined ? current.commissionRate : input.commissionRate
    if (!fits(program, type, rate)) return { kind: 'rate' }
    const group = stores.groups.update(groupId, changesOf(input))!
    const details = changedFields(groupData(current), groupData(group))
    stores.audit.write(by, deps.clock.now(), { program: group.programId, action: 'group.update', object: ['group', groupId], details })
    return { kind: 'ok', group }
  })
}

/** Deletes a group without partners in one writer unit. */
export function deleteGroup(
  deps: TrackingDeps,
  by: Actor,
  groupId: number,
  programId?: number,
): Promise<'deleted' | 'has_partners' | null> {
  const { stores } = deps.database
  return deps.database.writer.run(() => {
    const group = stores.groups.find(groupId, programId)
    if (!group) return null
    const removed = stores.groups.remove(groupId)
    if (removed === 'deleted')
      stores.audit.write(by, deps.clock.now(), {
        program: group.programId,
        action: 'group.delete',
        object: ['group', groupId],
        details: { name: group.name },
      })
    return removed
  })
}
