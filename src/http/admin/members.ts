import { Elysia, t } from 'elysia'
import { isEmail } from '../../domain/email.ts'
import { INVITED_ROLES } from '../../domain/role.ts'
import { addMember, changeRole, type MemberChange, presentMember, removeMember } from '../../tracking/members.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'

const role = t.Union(
  INVITED_ROLES.map((r) => t.Literal(r)),
  { error: "role must be admin or viewer (the account's own email is its owner)" },
)
export const AddMember = t.Object({
  email: t.String({ maxLength: 254, error: 'email must be an email address' }),
  role,
})
export const ChangeRole = t.Object({ role })
const checkAdd = bodyChecker(AddMember)
const checkRole = bodyChecker(ChangeRole)

/** A member change's answer, or its error: 404 unknown, 409 the owner (never removed or demoted). */
function answered(change: MemberChange) {
  if (change.kind === 'not_found') throw new HttpError(404, 'Member not found')
  if (change.kind === 'owner') throw new HttpError(409, 'The owner cannot be removed or given another role')
  return change.member
}

/** An account's members (docs/decisions.md, Teams and the audit log): add (with an emailed sign-in link), list, change a role, remove. */
export function memberAdminRoutes(deps: Deps) {
  const { stores } = deps.database
  const accountOf = (id: string) => {
    const account = stores.accounts.findAccount(idParam(id, 'Account'))
    if (!account) throw new HttpError(404, 'Account not found')
    return account
  }
  return new Elysia({ name: 'admin-members' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/accounts/:id/members',
      async ({ request, params, body, set }) => {
        const account = accountOf(params.id)
        const input = checkAdd(body)
        const email = input.email.trim()
        if (!isEmail(email)) throw new HttpError(400, 'email must be an email address')
        const added = await addMember(deps, deps.mail, operatorActor(request), account.id, email, input.role)
        if ('kind' in added) throw new HttpError(409, 'This account already has a member with that email')
        set.status = 201
        return ok(presentMember(added))
      },
      { detail: doc('Add a member to an account (emails them a sign-in link)', 'operator', { security: 'adminToken', body: AddMember }) },
    )
    .get('/api/v1/admin/accounts/:id/members', ({ params }) => ok(stores.members.listMembers(accountOf(params.id).id).map(presentMember)), {
      detail: doc("List an account's members, the owner first", 'operator', { security: 'adminToken' }),
    })
    .patch(
      '/api/v1/admin/members/:id',
      async ({ request, params, body }) => {
        const id = idParam(params.id, 'Member')
        const input = checkRole(body)
        return ok(presentMember(answered(await changeRole(deps, operatorActor(request), id, input.role))))
      },
      { detail: doc("Change a member's role (not the owner's)", 'operator', { security: 'adminToken', body: ChangeRole }) },
    )
    .delete(
      '/api/v1/admin/members/:id',
      async ({ request, params, body }) => {
        noBody(body)
        const id = idParam(params.id, 'Member')
        const member = answered(await removeMember(deps, operatorActor(request), id))
        return ok({ member_id: member.id, removed: true })
      },
      { detail: doc('Remove a member (not the owner): their sessions end at once', 'operator', { security: 'adminToken' }) },
    )
}
