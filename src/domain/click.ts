/**
 * The click endpoint's pure rules (docs/errors.md, Track click 400 table; States: referral link):
 * where `aff` comes from, and what a resolved link allows.
 */

export type AffResult = { ok: true; aff: string; search: string } | { ok: false; reason: 'invalid_url' | 'no_aff' }

/** The `aff` value of a fully qualified http(s) affiliate_url, with the URL's query; a URL without scheme is invalid. */
export function affOf(affiliateUrl: string): AffResult {
  let url: URL
  try {
    url = new URL(affiliateUrl)
  } catch {
    return { ok: false, reason: 'invalid_url' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'invalid_url' }
  const search = url.search
  const aff = firstParam(search, 'aff')?.trim()
  return aff ? { ok: true, aff, search } : { ok: false, reason: 'no_aff' }
}

/**
 * URLSearchParams' get(name) on a URL's search: the value of the first pair named `name`. A query
 * with no escape ('%' or '+') decodes to itself, so it is split here without building the
 * URLSearchParams object (a quarter of a click's URL work, issue 14); any other goes to URLSearchParams.
 */
function firstParam(search: string, name: string): string | null {
  if (search.includes('%') || search.includes('+')) return new URLSearchParams(search).get(name)
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=')
    if ((equals === -1 ? pair : pair.slice(0, equals)) === name) return equals === -1 ? '' : pair.slice(equals + 1)
  }
  return null
}

export interface LinkFacts {
  programId: number | null
  partnerId: number | null
  active: boolean
  /** The link's partner is active: a pending, rejected, suspended or deleted partner's links do not attribute. */
  partnerActive: boolean
}

export type LinkDecision =
  | { ok: true; programId: number; partnerId: number }
  | { ok: false; reason: 'not_found' | 'misconfigured' | 'disabled' }

/**
 * Whether a click may be recorded on a link: it must exist, name a partner and a program, and be
 * active, and so must its partner (a click on another partner's link answers as on a link turned off).
 */
export function decideLink(link: LinkFacts | null): LinkDecision {
  if (!link) return { ok: false, reason: 'not_found' }
  if (link.programId === null || link.partnerId === null) return { ok: false, reason: 'misconfigured' }
  if (!link.active || !link.partnerActive) return { ok: false, reason: 'disabled' }
  return { ok: true, programId: link.programId, partnerId: link.partnerId }
}
