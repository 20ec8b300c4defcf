import { payoutDetailsProblem } from '../../domain/payout-method.ts'
import { Elysia } from 'elysia'
import { rateFits } from '../../domain/commission.ts'
import { termsFor } from '../../domain/attribution.ts'
import { group as groupMessages, money, partner as messages } from '../../domain/messages.ts'
import { changePartnerStatus, deletePartner, partnerCreated, type StatusAction } from '../../tracking/partner-status.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, requireAdmin, operatorActor } from './guard.ts'
import { presentPartner } from './present.ts'
import { CreatePartner, RejectPartner, UpdatePartner } from './schemas.ts'
import { updatePartnerInUnit } from '../../tracking/partner-update.ts'

const checkCreate = bodyChecker(CreatePartner)
const checkUpdate = bodyChecker(UpdatePartner)
const checkReject = bodyChecker(RejectPartner)

const PATH = '/api/v1/admin/programs/:id/partners/:partner_id'
const conflictOf: Record<StatusAction, (status: string) => string> = {
  approve: messages.notPending,
  reject: messages.notPending,
  suspend: messages.notActive,
  unsuspend: messages.notSuspended,
}

/**
 * The operator API's partner routes: create, edit, delete, and the status actions (approve,
 * reject, suspend, unsuspend), each answering the partner as the read routes show it.
 */
export function partnerAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  // A partner's group must be one of its program's (docs/decisions.md, Groups).
  const groupOf = (programId: number, groupId: number | null) => {
    if (groupId === null) return null
    const group = stores.groups.find(groupId, programId)
    if (!group) throw new HttpError(400, groupMessages.groupId)
    return group
  }
  const ids = (params: { id: string; partner_id: string }) => ({
    programId: idParam(params.id, 'Program'),
    partnerId: idParam(params.partner_id, 'Partner'),
  })

  const statusRoute = (action: StatusAction, summary: string) =>
    new Elysia().post(
      `${PATH}/${action}`,
      async ({ request, params, body }) => {
        const { programId, partnerId } = ids(params)
        const reason = action === 'reject' ? (checkReject(body ?? {}).reason ?? null) : (noBody(body), null)
        const change = await changePartnerStatus(deps, operatorActor(request), programId, partnerId, action, { mail: deps.mail, reason })
        if (change.kind === 'not_found') throw new HttpError(404, messages.notFound)
        if (change.kind === 'conflict') throw new HttpError(409, conflictOf[action](change.status))
        return ok(presentPartner(change.partner))
      },
      { detail: doc(summary, 'operator', { security: 'adminToken', ...(action === 'reject' ? { body: RejectPartner } : {}) }) },
    )

  return new Elysia({ name: 'admin-partners' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/partners',
      async ({ params, body, set }) => {
        const programId = idParam(params.id, 'Program')
        const input = checkCreate(body)
        const partnerId = await writer.run(() => {
          const program = stores.programs.findProgram(programId)
          if (!program) throw new HttpError(404, 'Program not found')
          const rate = input.commission_rate ?? null
          const group = groupOf(programId, input.group_id ?? null)
          // The rate it will be paid at (partner → group → program) is judged with the type it will be paid by.
          const terms = termsFor(
            program,
            { commissionType: input.commission_type ?? null, commissionRate: rate, recurringMonths: null },
            group,
          )
          if (!rateFits(terms.commissionType, terms.commissionRate)) throw new HttpError(400, money.percentRate)
          const id = stores.programs.createPartner({
            programId,
            name: input.name,
            email: input.email,
            commissionType: input.commission_type ?? null,
            commissionRate: rate,
            recurringMonths: input.recurring_months ?? null,
            groupId: group?.id ?? null,
            createdAt: deps.clock.now(),
          })
          partnerCreated(deps, programId, id)
          return id
        })
        set.status = 201
        return ok({ partner_id: partnerId })
      },
      {
        detail: doc(
          "Add a partner to a program (status active), with its own terms when given (null or absent: the program's)",
          'operator',
          {
            security: 'adminToken',
            body: CreatePartner,
          },
        ),
      },
    )
    .patch(
      PATH,
      async ({ params, body, request }) => {
        const { programId, partnerId } = ids(params)
        const input = checkUpdate(body)
        const updated = await writer.run(() => {
          const current = stores.partners.find(programId, partnerId)
          if (!current) return null
          // The partner's own rate is judged with the type it will be paid by: its own, or the program's.
          const type = input.commission_type === undefined ? current.commissionType : input.commission_type
          const rate = input.commission_rate === undefined ? current.commissionRate : input.commission_rate
          const program = stores.programs.findProgram(programId)
          const group = groupOf(programId, input.group_id === undefined ? current.groupId : input.group_id)
          // The rate it will be paid at (partner → group → program) with the type it will be paid by.
          const terms = program && termsFor(program, { commissionType: type, commissionRate: rate, recurringMonths: null }, group)
          if (terms && !rateFits(terms.commissionType, terms.commissionRate)) throw new HttpError(400, money.percentRate)
          // docs/decisions.md, Paying partners: the details must be what the method pays to (checked when either changes).
          if (input.payout_method !== undefined || input.payout_details !== undefined) {
            const method = input.payout_method === undefined ? current.payoutMethod : input.payout_method
            const details = input.payout_details === undefined ? current.payoutDetails : input.payout_details
            const problem = method === null ? null : payoutDetailsProblem(method, (details ?? '').trim())
            if (problem) throw new HttpError(400, problem)
          }
          return updatePartnerInUnit(deps, operatorActor(request), programId, partnerId, {
            name: input.name,
            email: input.email,
            commissionType: input.commission_type,
            commissionRate: input.commission_rate,
            recurringMonths: input.recurring_months,
            payoutMethod: input.payout_method,
            payoutDetails:
              input.payout_details === undefined || input.payout_details === null ? input.payout_details : input.payout_details.trim(),
            groupId: input.group_id,
          })
        })
        if (!updated) throw new HttpError(404, messages.notFound)
        return ok(presentPartner(updated))
      },
      {
        detail: doc(
          "Change a partner's name, email, group, terms or payout details; null puts a term back to its group's or the program's",
          'operator',
          {
            security: 'adminToken',
            body: UpdatePartner,
          },
        ),
      },
    )
    .delete(
      PATH,
      async ({ request, params, body }) => {
        const { programId, partnerId } = ids(params)
        noBody(body)
        const removed = await deletePartner(deps, operatorActor(request), programId, partnerId)
        if (removed === null) throw new HttpError(404, messages.notFound)
        if (removed === 'has_sales') throw new HttpError(409, messages.hasSales)
        return ok({ partner_id: partnerId, deleted: true })
      },
      {
        detail: doc('Delete a partner without sales (409 otherwise: suspend them instead)', 'operator', { security: 'adminToken' }),
      },
    )
    .use(statusRoute('approve', 'Approve a partner: active, with a first link when it has none (the wished short link when free)'))
    .use(statusRoute('reject', 'Reject a pending application'))
    .use(statusRoute('suspend', 'Suspend an active partner: its links stop attributing and its portal sessions end'))
    .use(statusRoute('unsuspend', 'Make a suspended partner active again'))
}
