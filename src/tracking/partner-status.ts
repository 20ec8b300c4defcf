import { randomBytes } from 'node:crypto'
import type { Partner } from '../db/partner-store.ts'
import type { PartnerStatus } from '../db/schema.ts'
import type { TrackingDeps } from './deps.ts'

/** What the owner does to a partner's status (docs/decisions.md, Partners who join on their own). */
export type StatusAction = 'approve' | 'reject' | 'suspend' | 'unsuspend'

/** The statuses each action starts from, and the status it leaves. */
const TRANSITIONS: Record<StatusAction, { from: PartnerStatus[]; to: PartnerStatus }> = {
  approve: { from: ['pending', 'rejected'], to: 'active' },
  reject: { from: ['pending'], to: 'rejected' },
  suspend: { from: ['active'], to: 'suspended' },
  unsuspend: { from: ['suspended'], to: 'active' },
}

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
export function changePartnerStatus(deps: TrackingDeps, programId: number, partnerId: number, action: StatusAction): Promise<StatusChange> {
  const { stores } = deps.database
  return deps.database.writer.run((): StatusChange => {
    const now = deps.clock.now()
    const current = stores.partners.find(programId, partnerId)
    if (!current) return { kind: 'not_found' }
    const { from, to } = TRANSITIONS[action]
    if (!from.includes(current.status)) return { kind: 'conflict', status: current.status }
    const partner = stores.partners.setStatus(programId, partnerId, to)!
    if (to !== 'active') stores.webSessions.revokeAllOf({ kind: 'partner', partnerId }, now)
    const link = action === 'approve' && !stores.programs.hasLink(partnerId) ? firstLink(deps, partner, now) : null
    return { kind: 'ok', partner, link }
  })
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
