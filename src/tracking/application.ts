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
  /** The same applicant (+tag dropped) applied to this program before: nothing changed or sent. */
  | { kind: 'known'; partner: Partner }
  /** No such program (or group of it), or its partner_signup (the group's, else the program's) is off. */
  | { kind: 'closed' }

/**
 * Takes an application in one writer unit (docs/decisions.md, Partners who join on their own): a
 * partner `pending` under approval (in group `groupId` when given: docs/decisions.md, Groups), or `active` and approved at once (link and approval email)
 * under open; the applicant's email (received, under approval) and the owner's (new application)
 * are queued in the same unit. The applicant's IP is kept as a keyed hash for the same_ip signal.
 * `mayMailApplicant` is asked only when an email to the applicant would be queued (a new
 * applicant): false (the address had its emails for the day) queues none. The applicant's emails
 * carry the program's words only, never what the applicant typed. A repeat applicant is sent
 * nothing, and its application time is written all the same, so that both answers wait on one
 * commit (docs/decisions.md, Safety, third round).
 */
export async function applyToProgram(
  deps: TrackingDeps,
  mail: Mail,
  programId: number,
  application: Application,
  ip: string | null,
  mayMailApplicant: () => boolean = () => true,
  groupId: number | null = null,
): Promise<ApplicationOutcome> {
  const { stores } = deps.database
  const outcome = await deps.database.writer.run((): ApplicationOutcome => {
    const now = deps.clock.now()
    const program = stores.programs.findProgram(programId)
    if (!program) return { kind: 'closed' }
    // docs/decisions.md, Groups: a group's join page puts applicants in it, under its own partner_signup or the program's.
    const group = groupId === null ? null : stores.groups.find(groupId, programId)
    if (groupId !== null && !group) return { kind: 'closed' }
    const signup = group?.partnerSignup ?? program.partnerSignup
    if (signup === 'off') return { kind: 'closed' }
    const known = stores.partners.findApplicant(programId, application.email)
    if (known) {
      stores.partners.noteApplication(known.id, now)
      return { kind: 'known', partner: known }
    }
    const open = signup === 'open'
    const partnerId = stores.partners.createApplicant({
      programId,
      name: application.name,
      email: application.email,
      website: application.website,
      promotion: application.promotion,
      wishedShortLink: application.shortLink,
      status: open ? 'active' : 'pending',
      groupId,
      createdAt: now,
      lastAppliedAt: now,
    })
    const partner = stores.partners.find(programId, partnerId)!
    partnerCreated(deps, programId, partnerId)
    const hash = ipHash(deps.secret, ip)
    if (hash !== null) stores.partners.rememberIp(partnerId, hash, now)
    emitEvent(deps, programId, 'partner.applied', () => partnerData(partner))
    const mailApplicant = mayMailApplicant()
    if (open) approveInUnit(deps, program, partner, now, mailApplicant ? mail : undefined, true)
    if (!open && mailApplicant) stores.emails.queue(applicationReceived(program, application.email), now)
    const owner = stores.accounts.ownerEmailOf(program.advertiserId)
    const review = `${mail.baseUrl}/dashboard/programs/${program.id}/partners/${partnerId}`
    if (owner) stores.emails.queue(newApplication(program, owner, application, review, !open), now)
    return { kind: 'applied', partner: stores.partners.find(programId, partnerId)! }
  })
  if (outcome.kind === 'applied') mail.wake()
  return outcome
}
