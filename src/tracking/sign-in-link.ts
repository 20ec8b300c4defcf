import type { Principal } from '../db/web-session-store.ts'
import { iso } from '../domain/time.ts'
import type { Mail } from '../outbox/mail.ts'
import { signInLink } from '../outbox/messages.ts'
import type { TrackingDeps } from './deps.ts'

/** docs/decisions.md (Dashboard and partner portal): a sign-in link works once, for 10 minutes. */
export const SIGN_IN_LINK_LIFETIME_MS = 10 * 60_000

/**
 * Issues a one-time sign-in link for `who`: `url` absolute on `baseUrl` (PUBLIC_BASE_URL), and
 * `expires_at`. The operator API, the CLI's dashboard-link and the dashboard's portal-link button
 * all make their links here.
 */
export async function issueSignInLink(
  { database, clock }: TrackingDeps,
  baseUrl: string,
  who: Principal,
): Promise<{ url: string; expires_at: string }> {
  const link = await database.writer.run(() => database.stores.webSessions.createSignInLink(who, clock.now(), SIGN_IN_LINK_LIFETIME_MS))
  return { url: `${baseUrl}/sign-in/${link.token}`, expires_at: iso(link.expiresAt) }
}

/**
 * Emails a one-time sign-in link (10 minutes) to each member of an account (`account`) or active partner of any
 * program (`partner`) whose stored email is `email`, in one writer unit; nothing when none is.
 * The caller answers the same words either way (docs/decisions.md, Email: sign-in by email).
 */
export async function emailSignInLinks(deps: TrackingDeps, mail: Mail, kind: 'account' | 'partner', email: string): Promise<void> {
  const { stores } = deps.database
  const queued = await deps.database.writer.run(() => {
    const now = deps.clock.now()
    const link = (who: Principal) =>
      `${mail.baseUrl}/sign-in/${stores.webSessions.createSignInLink(who, now, SIGN_IN_LINK_LIFETIME_MS).token}`
    let count = 0
    if (kind === 'account') {
      // Every member with this email, the owners among them (docs/decisions.md, Teams and the audit log).
      for (const member of stores.members.activeByEmail(email)) {
        const who = { kind: 'account' as const, accountId: member.accountId, memberId: member.id }
        stores.emails.queue(signInLink(member.email, 'your svc dashboard', link(who), null), now)
        count++
      }
    } else {
      for (const partner of stores.partners.activeByEmail(email)) {
        const program = stores.programs.findProgram(partner.programId)
        const where = `the ${program?.name ?? 'svc'} partner portal`
        stores.emails.queue(signInLink(partner.email!, where, link({ kind: 'partner', partnerId: partner.id }), partner.programId), now)
        count++
      }
    }
    return count
  })
  if (queued > 0) mail.wake()
}
