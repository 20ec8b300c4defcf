import type { Actor, AuditAction } from '../domain/audit.ts'
import { referralUrlOf } from '../domain/site.ts'
import { randomBytes } from 'node:crypto'
import type { Partner } from '../db/partner-store.ts'
import type { PartnerStatus } from '../db/schema.ts'
import type { Program } from '../db/schema.ts'
import type { Mail } from '../outbox/mail.ts'
import { applicationApproved, applicationRejected } from '../outbox/messages.ts'
import { presentRow } from '../domain/record.ts'
import type { TrackingDeps } from './deps.ts'
import { emitEvent } from './webhook-events.ts'

/** How long the sign-in link of an approval email works: as long as the email may take to arrive (3 days of retries). */
export const APPROVAL_LINK_LIFETIME_MS = 72 * 3_600_000

/** A partner as every partner read shows it (and its events carry): status, terms and payout details; never its deletion mark. */
export function partnerData(partner: Partner): Record<string, unknown> {
  const { deletedAt: _, ...rest } = partner
  return presentRow('partner', rest)
}

/**
 * Emits `partner.created` for a partner just made, inside the unit that made it (docs/webhooks.md:
 * every new partner, however made: operator API, dashboard, join page, the CLI's test partner).
 */
export function partnerCreated(deps: TrackingDeps, programId: number, partnerId: number): void {
  emitEvent(deps, programId, 'partner.created', () => partnerData(deps.database.stores.partners.find(programId, partnerId)!))
}

/** What the owner does to a partner's status (docs/decisions.md, Partners who join on their own). */
export type StatusAction = 'approve' | 'reject' | 'suspend' | 'unsuspend'

/** The statuses each action starts from, and the status it leaves. */
const TRANSITIONS: Record<StatusAction, { from: PartnerStatus[]; to: PartnerStatus }> = {
  approve: { from: ['pending', 'rejected'], to: 'active' },
  reject: { from: ['pending'], to: 'rejected' },
  suspend: { from: ['active'], to: 'suspended' },
  unsuspend: { from: ['suspended'], to: 'active' },
}

/** The audit action of each status change. */
const AUDITED = {
  approve: 'partner.approve',
  reject: 'partner.reject',
  suspend: 'partner.suspend',
  unsuspend: 'partner.reactivate',
} as const satisfies Record<StatusAction, AuditAction>

export type StatusChange =
  | { kind: 'ok'; partner: Partner; link: { id: number; shortLink: string } | null }
  | { kind: 'not_found' }
  | { kind: 'conflict'; status: PartnerStatus }

/**
 * Changes a partner's status in one writer unit. Approving makes the partner's first link when it
 * has none: the short link it asked for when still free, else a generated one. Rejecting or
 * suspending ends the partner's portal sessions and unused sign-in links (docs/decisions.md,
 * Hostile input, turn 3). 'conflict' when the action does not apply to the current status.
 */
export async function changePartnerStatus(
  deps: TrackingDeps,
  by: Actor,
  programId: number,
  partnerId: number,
  action: StatusAction,
  options: { mail?: Mail; reason?: string | null } = {},
): Promise<StatusChange> {
  const { stores } = deps.database
  const change = await deps.database.writer.run((): StatusChange => {
    const now = deps.clock.now()
    const current = stores.partners.find(programId, partnerId)
    const program = stores.programs.findProgram(programId)
    if (!current || !program) return { kind: 'not_found' }
    const { from, to } = TRANSITIONS[action]
    if (!from.includes(current.status)) return { kind: 'conflict', status: current.status }
    const partner = stores.partners.setStatus(programId, partnerId, to)!
    const details = { from: current.status, to, ...(action === 'reject' && options.reason ? { reason: options.reason } : {}) }
    stores.audit.write(by, now, { program: programId, action: AUDITED[action], object: ['partner', partnerId], details })
    if (to !== 'active') stores.webSessions.revokeAllOf({ kind: 'partner', partnerId }, now)
    if (action === 'approve') return { kind: 'ok', partner, link: approveInUnit(deps, program, partner, now, options.mail) }
    if (action === 'reject' && options.mail && partner.email) {
      stores.emails.queue(applicationRejected(program, partner.email, options.reason ?? null), now)
    }
    return { kind: 'ok', partner, link: null }
  })
  if (change.kind === 'ok') options.mail?.wake()
  return change
}

/**
 * The writes of an approval inside the caller's unit (the partner is active already): its first
 * link when it has none, and the approval email with the referral link and a portal sign-in link.
 * Answers the link made, if any. `unreviewed` (an open program approving at once): nobody read the
 * application, and the email goes to whatever address was typed, so it carries none of the
 * applicant's words (docs/decisions.md, Safety, third round): not the link, which holds the wished
 * short link or the name; the partner finds it in the portal the email's sign-in link opens.
 */
export function approveInUnit(
  deps: TrackingDeps,
  program: Program,
  partner: Partner,
  now: number,
  mail: Mail | undefined,
  unreviewed = false,
): { id: number; shortLink: string } | null {
  const { stores } = deps.database
  const link = stores.programs.hasLink(partner.id) ? null : firstLink(deps, partner, now)
  emitEvent(deps, program.id, 'partner.approved', () => partnerData(stores.partners.find(program.id, partner.id) ?? partner))
  if (mail && partner.email) {
    const shortLink = link?.shortLink ?? stores.programs.firstShortLink(partner.id)
    const signIn = stores.webSessions.createSignInLink({ kind: 'partner', partnerId: partner.id }, now, APPROVAL_LINK_LIFETIME_MS)
    stores.emails.queue(
      applicationApproved(program, partner.email, {
        referralUrl: shortLink && !unreviewed ? referralUrlOf(program, shortLink) : null,
        signInUrl: `${mail.baseUrl}/sign-in/${signIn.token}`,
        signInPage: `${mail.baseUrl}/partner/sign-in`,
        lifetime: '3 days',
      }),
      now,
    )
  }
  return link
}

/** A first link for an approved partner: the wished short link when free, else a generated one. */
function firstLink(deps: TrackingDeps, partner: Partner, now: number): { id: number; shortLink: string } {
  const { programs } = deps.database.stores
  const base = slugOf(partner.name ?? '') || 'partner'
  const candidates = [partner.wishedShortLink, ...Array.from({ length: 8 }, () => `${base}-${randomBytes(4).toString('hex')}`)]
  for (const shortLink of candidates) {
    if (!shortLink) continue
    const made = programs.createLink({ programId: partner.programId, partnerId: partner.id, shortLink, createdAt: now })
    if (!('kind' in made)) return made
  }
  // 8 random 32-bit suffixes all taken: not a state a database of this size reaches.
  throw new Error('no free short link for the approved partner')
}

/** Lowercase letters and digits of `name`, other runs as one '-', none at the ends; at most 24 characters. */
function slugOf(name: string): string {
  let slug = ''
  for (const char of name.toLowerCase()) {
    if (slug.length >= 24) break
    const plain = (char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')
    if (plain) slug += char
    else if (slug !== '' && !slug.endsWith('-')) slug += '-'
  }
  return slug.endsWith('-') ? slug.slice(0, -1) : slug
}

/**
 * Deletes a partner without sales in one writer unit, with its `partner.delete` audit entry; their
 * portal sessions and links end. Answers null when there is no such partner, `has_sales` when it has sales.
 */
export function deletePartner(
  deps: TrackingDeps,
  by: Actor,
  programId: number,
  partnerId: number,
): Promise<'deleted' | 'has_sales' | null> {
  const { stores } = deps.database
  return deps.database.writer.run(() => {
    const now = deps.clock.now()
    const before = stores.partners.find(programId, partnerId)
    const result = stores.partners.remove(programId, partnerId, now)
    if (result !== 'deleted') return result
    stores.webSessions.revokeAllOf({ kind: 'partner', partnerId }, now)
    const details = { name: before?.name ?? null, email: before?.email ?? null }
    stores.audit.write(by, now, { program: programId, action: 'partner.delete', object: ['partner', partnerId], details })
    return result
  })
}
