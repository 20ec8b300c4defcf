/**
 * A member's role in an account (docs/decisions.md, Teams and the audit log): `viewer` reads
 * everything and changes nothing, `admin` does all but the Team page, `owner` (the account's own
 * email) does everything; only the owner sends payouts and regenerates the key (Turn 4, settled).
 */
export const ROLES = ['viewer', 'admin', 'owner'] as const
export type Role = (typeof ROLES)[number]
/** The roles an invitation or a role change may give: the owner is the account's own email. */
export const INVITED_ROLES = ['admin', 'viewer'] as const
export type InvitedRole = (typeof INVITED_ROLES)[number]

/** Whether `role` may do what needs `needed` (viewer < admin < owner). */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed)
}
