/**
 * The audit log's words (docs/decisions.md, Teams and the audit log): who acted, and the actions
 * written. Sales, clicks and other tracking are not audited; owners, members, the operator and
 * jobs are (Turn 4, settled).
 */

/** Who acted: a member's email, the operator token, a program key by id and scope, or a job. */
export type ActorName = string
export const OPERATOR = 'operator'
export const SYSTEM = 'system'
export const keyActor = (keyId: number, scope: string): ActorName => `key:${keyId}:${scope}`
/** A partner acting in the portal on their own record (their payout details). */
export const partnerActor = (partnerId: number): ActorName => `partner:${partnerId}`

/** Who acted and from where: what a use case is handed by its route, and writes with its change. */
export interface Actor {
  actor: ActorName
  /** The raw IP of the person who acted (Turn 4, settled); null for a job. */
  ip: string | null
}

/** A job's actor (the payout poller, imports). */
export const systemActor: Actor = { actor: SYSTEM, ip: null }

export const AUDIT_ACTIONS = [
  'commission.approve',
  'commission.reject',
  'payout.run',
  'payout.send',
  'payout.paid',
  'payout.failed',
  'payout.cancel',
  'bonus.create',
  'group.create',
  'group.update',
  'group.delete',
  'settings.update',
  'key.regenerate',
  'key.rotation',
  'key.create',
  'key.delete',
  'partner.update',
  'partner.approve',
  'partner.reject',
  'partner.suspend',
  'partner.reactivate',
  'partner.delete',
  'member.add',
  'member.role',
  'member.remove',
  'import.start',
  'import.cancel',
  'webhook.create',
  'webhook.update',
  'webhook.secret',
  'webhook.delete',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]
