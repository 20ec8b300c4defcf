import { Elysia } from 'elysia'
import { group as messages, money } from '../../domain/messages.ts'
import { createGroup, deleteGroup, type GroupInput, type GroupOutcome, groupData, updateGroup } from '../../tracking/groups.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'
import { CreateGroup, UpdateGroup } from './schemas.ts'

const checkCreate = bodyChecker(CreateGroup)
const checkUpdate = bodyChecker(UpdateGroup)

/** A checked body as the use case takes it. */
function inputOf(body: (typeof UpdateGroup)['static']): GroupInput {
  return {
    name: body.name,
    commissionType: body.commission_type,
    commissionRate: body.commission_rate,
    recurringMonths: body.recurring_months,
    holdingPeriodDays: body.holding_period_days,
    discount:
      body.discount === undefined
        ? undefined
        : body.discount && { couponId: body.discount.coupon_id, description: body.discount.description },
    partnerSignup: body.partner_signup,
  }
}

function answer(outcome: GroupOutcome, missing: string) {
  if (outcome.kind === 'not_found') throw new HttpError(404, missing)
  if (outcome.kind === 'rate') throw new HttpError(400, money.percentRate)
  return outcome.group
}

/**
 * The operator API's partner groups (docs/decisions.md, Groups): create and list a program's,
 * change one, delete one without partners (409 otherwise).
 */
export function groupAdminRoutes(deps: Deps) {
  const { stores } = deps.database
  return new Elysia({ name: 'admin-groups' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/groups',
      async ({ params, body, set, request }) => {
        const programId = idParam(params.id, 'Program')
        const input = checkCreate(body)
        const group = answer(
          await createGroup(deps, operatorActor(request), programId, { ...inputOf(input), name: input.name }),
          'Program not found',
        )
        set.status = 201
        return ok(groupData(group, 0))
      },
      {
        detail: doc("Add a partner group with its own terms, discount and signup (null or absent: the program's)", 'operator', {
          security: 'adminToken',
          body: CreateGroup,
        }),
      },
    )
    .get(
      '/api/v1/admin/programs/:id/groups',
      ({ params }) => {
        const programId = idParam(params.id, 'Program')
        if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        return { data: stores.groups.list(programId).map((g) => groupData(g, g.partners)), error: null, next_cursor: null }
      },
      { detail: doc("A program's groups, oldest first, each with its number of partners", 'operator', { security: 'adminToken' }) },
    )
    .patch(
      '/api/v1/admin/groups/:id',
      async ({ params, body, request }) => {
        const groupId = idParam(params.id, 'Group')
        const group = answer(await updateGroup(deps, operatorActor(request), groupId, inputOf(checkUpdate(body))), messages.notFound)
        const listed = stores.groups.list(group.programId).find((g) => g.id === group.id)
        return ok(groupData(group, listed?.partners ?? 0))
      },
      {
        detail: doc("Change a group's name, terms, discount or signup; null puts a term back to the program's", 'operator', {
          security: 'adminToken',
          body: UpdateGroup,
        }),
      },
    )
    .delete(
      '/api/v1/admin/groups/:id',
      async ({ params, body, request }) => {
        noBody(body)
        const groupId = idParam(params.id, 'Group')
        const removed = await deleteGroup(deps, operatorActor(request), groupId)
        if (removed === null) throw new HttpError(404, messages.notFound)
        if (removed === 'has_partners') throw new HttpError(409, messages.hasPartners)
        return ok({ group_id: groupId, deleted: true })
      },
      { detail: doc('Delete a group without partners (409 otherwise)', 'operator', { security: 'adminToken' }) },
    )
}
