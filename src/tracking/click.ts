import { randomBytes } from 'node:crypto'
import { TrackingStore } from '../db/tracking-store'
import type { TrackingDeps } from './deps'

/** A new click id: 128 random bits, URL-safe (DECISIONS.md: at least 96, unguessable). */
export function newClickId(): string {
  return `clk_${randomBytes(16).toString('base64url')}`
}

export interface ClickInput {
  programId: number
  linkId: number
  partnerId: number
  /** The visitor's existing cookie, if sent: kept when the program issued it (first click wins). */
  clickId: string | null
  testMode: boolean
  ip: string | null
  userAgent: string | null
}

/**
 * Logs one click for the link's partner in one writer unit; resolves with the click id to answer.
 * A click_id the program issued before is repeated (the customer stays with the first partner,
 * SPEC.md rule 1); an unknown one is ignored and a new one issued.
 */
export function recordClick(deps: TrackingDeps, input: ClickInput): Promise<string> {
  const store = TrackingStore.of(deps.database)
  return deps.database.writer.run(() => {
    const known = input.clickId !== null && store.clickKnown(input.programId, input.clickId)
    const clickId = known ? input.clickId! : newClickId()
    store.insertClick({
      clickId, programId: input.programId, linkId: input.linkId, partnerId: input.partnerId,
      testMode: input.testMode, ip: input.ip, userAgent: input.userAgent, createdAt: deps.clock.now(),
    })
    return clickId
  })
}
