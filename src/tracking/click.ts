import type { Program } from '../db/schema.ts'
import { affOf, decideLink, type AffResult, type LinkDecision } from '../domain/click.ts'
import type { TrackingDeps } from './deps.ts'

/** Base 62 in ASCII order, so that the time part of ids sorts as the time does. */
const ORDERED = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * A new click id: `clk_`, the time in milliseconds as 7 ordered base-62 characters, then 96
 * random bits as 16 URL-safe characters (docs/decisions.md: at least 96, unguessable). The time
 * prefix keeps each batch's inserts into the click_id index on one or two B-tree pages; random
 * ids touched a page per click, and the COMMIT wrote (and fsynced) every one of them.
 */
export function newClickId(now: number): string {
  const ms = Math.max(0, Math.floor(now))
  if (ms !== prefixMs) {
    let time = ''
    for (let t = ms, i = 0; i < 7; i++, t = Math.floor(t / 62)) time = ORDERED[t % 62] + time
    prefix = `clk_${time}`
    prefixMs = ms
  }
  return prefix + randomPart()
}

// The clicks of one millisecond share their prefix: it is written out once per millisecond.
let prefixMs = -1
let prefix = ''

// The random parts come from a pool filled by the CSPRNG 256 ids at a time, each byte used once:
// randomBytes(12) per click cost 0.6 µs, the pool's slice 0.06 µs (issue 14).
const RANDOM_BYTES = 12
const pool = Buffer.alloc(RANDOM_BYTES * 256)
let poolAt = pool.length

function randomPart(): string {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  return pool.toString('base64url', poolAt, (poolAt += RANDOM_BYTES))
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
 * docs/api.md rule 1); an unknown one is ignored and a new one issued.
 */
export function recordClick(deps: TrackingDeps, input: ClickInput): Promise<string> {
  const store = deps.database.stores.tracking
  // One write (the click row; its rollup is the trigger's, inside the same statement).
  return deps.database.writer.runSingleWrite(() => {
    const known = input.clickId !== null && store.clickKnown(input.programId, input.clickId)
    const createdAt = deps.clock.now()
    const clickId = known ? input.clickId! : newClickId(createdAt)
    store.insertClick({
      clickId,
      programId: input.programId,
      linkId: input.linkId,
      partnerId: input.partnerId,
      testMode: input.testMode,
      ip: input.ip,
      userAgent: input.userAgent,
      createdAt,
    })
    return clickId
  })
}

export interface ClickRequest {
  affiliateUrl: string
  clickId: string | null
  testMode: boolean
  ip: string | null
  userAgent: string | null
}

export type ClickRefusal = Extract<AffResult, { ok: false }>['reason'] | Extract<LinkDecision, { ok: false }>['reason']

export type ClickOutcome =
  | { kind: 'recorded'; clickId: string; partnerId: number; windowDays: number }
  | { kind: 'refused'; reason: ClickRefusal }

/**
 * The click path of POST /api/v1/track/click and of the CLI's test events: the link named by the
 * URL's `aff`, whether it takes clicks (docs/errors.md, Track click), then `admit` (which
 * throws to refuse: the browser origin, the test-mode program check) against the link's program,
 * then the click recorded. A refusal records nothing.
 */
export async function trackClick(
  deps: TrackingDeps,
  request: ClickRequest,
  admit?: (program: Pick<Program, 'domain' | 'allowedOrigins'>) => void,
): Promise<ClickOutcome> {
  const aff = affOf(request.affiliateUrl)
  if (!aff.ok) return { kind: 'refused', reason: aff.reason }
  const link = deps.database.stores.tracking.findLink(aff.aff)
  const decision = decideLink(link)
  if (!decision.ok) return { kind: 'refused', reason: decision.reason }
  // A configured link has a program row (foreign key), so its domain, origins and window are present;
  // the catalog's row itself is passed, so that its origin answers are kept (originAllowedOnce).
  admit?.(link as Pick<Program, 'domain' | 'allowedOrigins'>)
  const clickId = await recordClick(deps, {
    programId: decision.programId,
    linkId: link!.id,
    partnerId: decision.partnerId,
    clickId: request.clickId,
    // The CLI test chain's own link (docs/cli.md): every click on it is test data, a real visitor's too.
    testMode: request.testMode || link!.testFixture,
    ip: request.ip,
    userAgent: request.userAgent,
  })
  return { kind: 'recorded', clickId, partnerId: decision.partnerId, windowDays: link!.windowDays! }
}
