/**
 * The click endpoint's pure rules (docs/errors.md, Track click 400 table; States: referral link):
 * where `aff` comes from, and what a resolved link allows.
 */

export type AffResult = { ok: true; aff: string } | { ok: false; reason: 'invalid_url' | 'no_aff' }

/** The `aff` value of a fully qualified http(s) affiliate_url; a URL without scheme is invalid. */
export function affOf(affiliateUrl: string): AffResult {
  let url: URL
  try {
    url = new URL(affiliateUrl)
  } catch {
    return { ok: false, reason: 'invalid_url' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'invalid_url' }
  const aff = url.searchParams.get('aff')?.trim()
  return aff ? { ok: true, aff } : { ok: false, reason: 'no_aff' }
}

export interface LinkFacts {
  programId: number | null
  partnerId: number | null
  active: boolean
}

export type LinkDecision =
  | { ok: true; programId: number; partnerId: number }
  | { ok: false; reason: 'not_found' | 'misconfigured' | 'disabled' }

/** Whether a click may be recorded on a link: it must exist, name a partner and a program, and be active. */
export function decideLink(link: LinkFacts | null): LinkDecision {
  if (!link) return { ok: false, reason: 'not_found' }
  if (link.programId === null || link.partnerId === null) return { ok: false, reason: 'misconfigured' }
  if (!link.active) return { ok: false, reason: 'disabled' }
  return { ok: true, programId: link.programId, partnerId: link.partnerId }
}
