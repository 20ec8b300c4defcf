import type { Partner } from '../db/partner-store.ts'
import type { Mail } from '../outbox/mail.ts'
import { applicationReceived, newApplication } from '../outbox/messages.ts'
import type { TrackingDeps } from './deps.ts'
import { ipHash } from './ip-hash.ts'
import { approveInUnit, partnerCreated, partnerData } from './partner-status.ts'
import { emitEvent } from './webhook-events.ts'

/** An application from the join page, its fields already checked. */
export interface Application {
  name: string
  email: string
  website: string | null
  promotion: string | null
  shortLink: string | null
}

export type ApplicationOutcome =
  | { kind: 'applied'; partner: Partner }
  /** The same email applied to this program before: the same answer, nothing changed or sent. */
  | { kind: 'known'; partner: Partner }
  /** No such program, or its partner_signup is off. */
  | { kind: 'closed' }

/**
 * Takes an application in one writer unit (docs/decisions.md, Partners who join on their own): a
 * partner `pending` under approval, or `active` and approved at once (link and approval email)
 * under open; the applicant's email (received, under approval) and the owner's (new application)
 * are queued in the same unit. The applicant's IP is kept as a keyed hash for the same_ip signal.
 */
export async function applyToProgram(
  deps: TrackingDeps,
  mail: Mail,
  programId: number,
  application: Application,
  ip: string | null,
): Promise<ApplicationOutcome> {
  const { stores } = deps.database
  const outcome = await deps.database.writer.run((): ApplicationOutcome => {
    const now = deps.clock.now()
    const program = stores.programs.findProgram(programId)
    if (!program || program.partnerSignup === 'off') return { kind: 'closed' }
    const known = stores.partners.findByEmail(programId, application.email)
    if (known) return { kind: 'known', partner: known }
    const open = program.partnerSignup === 'open'
    const partnerId = stores.partners.createApplicant({
      programId,
      name: application.name,
      email: application.email,
      website: application.website,
      promotion: application.promotion,
      wishedShortLink: application.shortLink,
      status: open ? 'active' : 'pending',
      createdAt: now,
    })
    const partner = stores.partners.find(programId, partnerId)!
    partnerCreated(deps, programId, partnerId)
    const hash = ipHash(deps.secret, ip)
    if (hash !== null) stores.partners.rememberIp(partnerId, hash, now)
    emitEvent(deps, programId, 'partner.applied', () => partnerData(partner))
    const who = { name: partner.name, email: application.email }
    if (open) approveInUnit(deps, program, partner, now, mail)
    if (mail.on) {
      if (!open) stores.emails.queue(applicationReceived(program, who), now)
      const owner = stores.accounts.ownerEmailOf(program.advertiserId)
      const review = `${mail.baseUrl}/dashboard/programs/${program.id}/partners/${partnerId}`
      if (owner) stores.emails.queue(newApplication(program, owner, who, review, !open), now)
    }
    return { kind: 'applied', partner: stores.partners.find(programId, partnerId)! }
  })
  if (outcome.kind === 'applied' && mail.on) mail.wake()
  return outcome
}
