/**
 * The click endpoint's pure rules (docs/errors.md, Track click 400 table; States: referral link):
 * where `aff` comes from, and what a resolved link allows.
 */

export type AffResult = { ok: true; aff: string; search: string } | { ok: false; reason: 'invalid_url' | 'no_aff' }

import { DEFAULT_LINK_PARAM, ENCODED_LINK_PARAMS } from './imports.ts'

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

/** The query of a fully qualified http(s) URL, or null when it is not one. */
export function searchOf(affiliateUrl: string): string | null {
  let url: URL
  try {
    url = new URL(affiliateUrl)
  } catch {
    return null
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.search : null
}

/** A candidate referral token of an affiliate_url: the parameter it came by and the token (decoded when its parameter encodes it). */
export interface LinkCandidate {
  param: string
  token: string
}

/** At most this many query parameters are looked at for a link token (a URL may carry many). */
const MAX_CANDIDATES = 20

/**
 * The tokens an affiliate_url may name a link by (docs/imports.md): `aff` first, then each other
 * query parameter in order (a program's `link_params` say which of them it takes: the caller
 * checks the link's program). PartnerStack's `ps_partner_key` is base64 and decoded here.
 */
export function linkCandidates(search: string): LinkCandidate[] {
  const out: LinkCandidate[] = []
  const aff = firstParam(search, 'aff')?.trim()
  if (aff) out.push({ param: 'aff', token: aff })
  for (const [param, raw] of new URLSearchParams(search)) {
    if (out.length >= MAX_CANDIDATES) break
    const value = raw.trim()
    if (param === 'aff' || !value || out.some((c) => c.param === param)) continue
    if (ENCODED_LINK_PARAMS[param] === 'base64') {
      try {
        out.push({ param, token: atob(value) })
      } catch {
        /* not base64: no token */
      }
    } else out.push({ param, token: value })
  }
  return out
}

/**
 * Whether a link takes the parameter it was reached by: `aff` always; another only when its
 * program lists it and an import brought the link (its `source` is set). A common value of the
 * merchant's own links (`?ref=newsletter`) cannot then name a partner's svc link of that token.
 */
export const takesParam = (linkParams: readonly string[] | null | undefined, source: string | null, param: string): boolean =>
  param === DEFAULT_LINK_PARAM || (source !== null && (linkParams ?? []).includes(param))

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
