import type { Taken } from '../db/errors.ts'
import type { Member } from '../db/schema.ts'
import type { Actor } from '../domain/audit.ts'
import type { InvitedRole } from '../domain/role.ts'
import { iso } from '../domain/time.ts'
import type { Mail } from '../outbox/mail.ts'
import { memberInvitation } from '../outbox/messages.ts'
import type { TrackingDeps } from './deps.ts'
import { SIGN_IN_LINK_LIFETIME_MS } from './sign-in-link.ts'

// The members of an account (docs/decisions.md, Teams and the audit log): added, given another
// role and removed by its owner (the Team page) or the operator; each change audited in its unit.

/** A member as the operator API and the Team page show it. */
export function presentMember(member: Member): Record<string, unknown> {
  return { member_id: member.id, email: member.email, role: member.role, created_at: iso(member.createdAt) }
}

/**
 * Adds a member and emails them a sign-in link (or writes it to the log without SMTP). `taken`
 * when the account has a member with that email already.
 */
export async function addMember(
  deps: TrackingDeps,
  mail: Mail,
  by: Actor,
  accountId: number,
  email: string,
  role: InvitedRole,
): Promise<Member | Taken> {
  const { stores } = deps.database
  const added = await deps.database.writer.run((): Member | Taken => {
    const now = deps.clock.now()
    const member = stores.members.addMember(accountId, email, role, now)
    if ('kind' in member) return member
    stores.audit.write(by, now, { account: accountId, action: 'member.add', object: ['member', member.id], details: { email, role } })
    const link = stores.webSessions.createSignInLink({ kind: 'account', accountId, memberId: member.id }, now, SIGN_IN_LINK_LIFETIME_MS)
    const account = stores.accounts.findAccount(accountId)
    const name = account?.name ?? account?.email ?? `account ${accountId}`
    stores.emails.queue(memberInvitation(email, name, role, `${mail.baseUrl}/sign-in/${link.token}`), now)
    return member
  })
  if (!('kind' in added)) mail.wake()
  return added
}

export type MemberChange = { kind: 'done'; member: Member } | { kind: 'not_found' } | { kind: 'owner' }

/** Gives an invited member another role (the owner's cannot change); their open sessions have it at their next request. */
export function changeRole(deps: TrackingDeps, by: Actor, memberId: number, role: InvitedRole, accountId?: number): Promise<MemberChange> {
  const { stores } = deps.database
  return deps.database.writer.run((): MemberChange => {
    const member = stores.members.findMember(memberId)
    if (!member || (accountId !== undefined && member.accountId !== accountId)) return { kind: 'not_found' }
    if (member.role === 'owner') return { kind: 'owner' }
    if (member.role !== role) {
      stores.members.setRole(member.id, role)
      const details = { email: member.email, from: member.role, to: role }
      stores.audit.write(by, deps.clock.now(), { account: member.accountId, action: 'member.role', object: ['member', member.id], details })
    }
    return { kind: 'done', member: { ...member, role } }
  })
}

/** Removes an invited member (never the owner): their sessions and unused links end at once. */
export function removeMember(deps: TrackingDeps, by: Actor, memberId: number, accountId?: number): Promise<MemberChange> {
  const { stores } = deps.database
  return deps.database.writer.run((): MemberChange => {
    const member = stores.members.findMember(memberId)
    if (!member || (accountId !== undefined && member.accountId !== accountId)) return { kind: 'not_found' }
    if (member.role === 'owner') return { kind: 'owner' }
    const now = deps.clock.now()
    stores.members.removeMember(member.id, now)
    const details = { email: member.email, role: member.role }
    stores.audit.write(by, now, { account: member.accountId, action: 'member.remove', object: ['member', member.id], details })
    return { kind: 'done', member }
  })
}
