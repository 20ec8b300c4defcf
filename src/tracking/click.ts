import { isLoopback } from '../domain/network.ts'
import type { Program } from '../db/schema.ts'
import { affOf, decideLink, linkCandidates, searchOf, takesParam, type AffResult, type LinkDecision } from '../domain/click.ts'
import { clickSignals } from '../domain/fraud.ts'
import type { TrackingDeps } from './deps.ts'

export interface ClickInput {
  programId: number
  linkId: number
  partnerId: number
  /** The visitor's existing cookie, if sent: kept when the program issued it (first click wins). */
  clickId: string | null
  testMode: boolean
  ip: string | null
  userAgent: string | null
  /** The affiliate_url's query, where the paid_ads signal looks for an ad-click id. */
  search: string
}

/**
 * Logs one click for the link's partner in one writer unit; resolves with the click id to answer.
 * A click_id the program issued before is repeated (the customer stays with the first partner,
 * docs/api.md rule 1); an unknown one is ignored and a new one issued. The visitor counts say
 * whether the click is unique and in a burst; with the landing URL they make its fraud signal bits
 * (domain/fraud.ts), stored on its row (null, nothing, for an ordinary click).
 */
export function recordClick(deps: TrackingDeps, input: ClickInput): Promise<string> {
  const store = deps.database.stores.tracking
  const now = deps.clock.now()
  const seen = input.ip === null ? { unique: true, burst: false } : deps.visitors.see(input.linkId, input.testMode, input.ip, now)
  // A loopback address is the machine itself (a local test, a proxy without TRUST_PROXY): never a burst (docs/decisions.md, The first hour).
  const signals = clickSignals(input.search, seen.burst && !isLoopback(input.ip ?? ''))
  const click = (clickId: string | null) =>
    store.insertClick({
      clickId,
      programId: input.programId,
      linkId: input.linkId,
      partnerId: input.partnerId,
      testMode: input.testMode,
      ip: input.ip,
      userAgent: input.userAgent,
      createdAt: now,
      signals,
      unique: seen.unique,
    })
  const repeated = input.clickId === null ? null : store.firstClick(input.programId, input.clickId)
  // One write: the click row, numbered by the store, which seals a new id with its row; the store
  // adds it to daily_counts at the end of the batch, before COMMIT.
  if (signals === null || repeated === null || repeated.partnerId !== input.partnerId)
    return deps.database.writer.runSingleWrite(() => click(repeated ? repeated.clickId : null))
  // A suspicious click of a returning visitor on the same partner's link marks the visitor's
  // first click too: that is the click a sale of this visitor is attributed by.
  return deps.database.writer.run(() => {
    const clickId = click(repeated.clickId)
    store.addClickSignals(clickId, signals)
    return clickId
  })
}

type FoundLink = ReturnType<TrackingDeps['database']['stores']['tracking']['findLink']>

/**
 * The link an affiliate_url names: by `aff` as always (a URL with `aff` is decided by it), else by
 * the first other parameter whose token is a link an import brought, of a program listing that
 * parameter in its `link_params` (docs/imports.md: old links keep working). A token reached
 * through a parameter its program does not list, or through any but `aff` to a link svc made,
 * answers as an unknown link.
 */
function linkOf(deps: TrackingDeps, affiliateUrl: string): { link: FoundLink; aff: { search: string } } | { refused: ClickRefusal } {
  const aff = affOf(affiliateUrl)
  if (aff.ok) return { link: deps.database.stores.tracking.findLink(aff.aff), aff }
  if (aff.reason === 'invalid_url') return { refused: aff.reason }
  const search = searchOf(affiliateUrl) ?? ''
  let unlisted = false
  for (const candidate of linkCandidates(search)) {
    const link = deps.database.stores.tracking.findLink(candidate.token)
    if (!link) continue
    if (takesParam(link.linkParams, link.source, candidate.param)) return { link, aff: { search } }
    unlisted = true
  }
  return { refused: unlisted ? 'not_found' : 'no_aff' }
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
  admit?: (program: Pick<Program, 'domain' | 'siteUrl' | 'allowedOrigins'>) => void,
): Promise<ClickOutcome> {
  const found = linkOf(deps, request.affiliateUrl)
  if ('refused' in found) return { kind: 'refused', reason: found.refused }
  const { link, aff } = found
  const decision = decideLink(link)
  if (!decision.ok) return { kind: 'refused', reason: decision.reason }
  // A configured link has a program row (foreign key), so its domain, origins and window are present;
  // the catalog's row itself is passed, so that its origin answers are kept (originAllowedOnce).
  admit?.(link as Pick<Program, 'domain' | 'siteUrl' | 'allowedOrigins'>)
  const clickId = await recordClick(deps, {
    programId: decision.programId,
    linkId: link!.id,
    partnerId: decision.partnerId,
    clickId: request.clickId,
    // The CLI test chain's own link (docs/cli.md): every click on it is test data, a real visitor's too.
    testMode: request.testMode || link!.testFixture,
    ip: request.ip,
    userAgent: request.userAgent,
    search: aff.search,
  })
  return { kind: 'recorded', clickId, partnerId: decision.partnerId, windowDays: link!.windowDays! }
}
