import { networkOf } from './network.ts'
/**
 * Fraud signals (docs/decisions.md, Fraud signals and review). Pure: each rule takes the facts
 * collected where they arose (the click path's signal bits, the customer's and partner's emails,
 * whether an IP matched) and answers whether it fires; `reviewOf` turns the program's
 * fraud_review mode and the flags into the commission's review state.
 */

/** The flags, in the order a commission lists them. */
export const FRAUD_FLAGS = ['self_referral', 'same_ip', 'disposable_email', 'paid_ads', 'click_burst'] as const
export type FraudFlag = (typeof FRAUD_FLAGS)[number]

/** A program's fraud_review: hold flagged commissions for review, only flag them, or check nothing. */
export const FRAUD_REVIEWS = ['hold', 'flag', 'off'] as const
export type FraudReview = (typeof FRAUD_REVIEWS)[number]

/** Each flag in the words the dashboard's Review page shows a founder. */
export const FLAG_EXPLANATIONS: Record<FraudFlag, string> = {
  self_referral: "The customer's email is the partner's own, or at the partner's own company domain.",
  same_ip: 'The customer clicked or signed up from an IP address the partner used to apply or to sign in to the portal.',
  disposable_email: "The customer's email is at a throwaway (disposable) mail service.",
  paid_ads: 'The click came from a paid ad (its landing URL carries an ad-click id such as gclid or fbclid).',
  click_burst: "The link had over 50 clicks from the customer's IP address in the hour before the customer's click.",
}

/** The bits the click path stores on a click row (clicks.signals), null when none is set. */
export const CLICK_SIGNALS = { paidAds: 1, burst: 2 } as const

/** The ad networks' click ids: a landing URL carrying one came from a paid ad. */
export const AD_CLICK_IDS: ReadonlySet<string> = new Set([
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'ttclid',
  'twclid',
  'li_fat_id',
])

/** click_burst fires when a link had more clicks than this from one IP in the hour before a click. */
export const BURST_CLICKS = 50

/**
 * Whether a URL's query (`?a=1&gclid=…`, as URL.search gives it) names an ad-click id. The names
 * are plain ASCII, so the escaped forms a browser never writes are not decoded; a split on '&',
 * no regular expression.
 */
export function hasAdClickId(search: string): boolean {
  if (search.length < 2) return false
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=')
    if (AD_CLICK_IDS.has(equals === -1 ? pair : pair.slice(0, equals))) return true
  }
  return false
}

/** The signal bits of a click: its landing URL's query, and whether its link and IP are in a burst. */
export function clickSignals(search: string, burst: boolean): number | null {
  const bits = (hasAdClickId(search) ? CLICK_SIGNALS.paidAds : 0) | (burst ? CLICK_SIGNALS.burst : 0)
  return bits === 0 ? null : bits
}

/** An address split into its local part (without a +tag) and its domain, lowercased; null when it is not one. */
export function addressParts(email: string | null): { local: string; domain: string } | null {
  if (email === null) return null
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at < 1 || at === address.length - 1) return null
  const local = address.slice(0, at)
  const plus = local.indexOf('+')
  return { local: plus > 0 ? local.slice(0, plus) : local, domain: address.slice(at + 1).replace(/\.$/, '') }
}

/** The domain and each of its parents that still has a dot ("a.b.c" → "a.b.c", "b.c"). */
function* suffixes(domain: string): Generator<string> {
  let rest = domain
  for (;;) {
    yield rest
    const dot = rest.indexOf('.')
    if (dot === -1 || rest.indexOf('.', dot + 1) === -1) return
    rest = rest.slice(dot + 1)
  }
}

/** The maintained lists (domain/fraud-lists.ts), as sets: null until installDomainLists gave them. */
let disposable: { exact: Set<string>; wildcard: Set<string> } | null = null
let providers: Set<string> | null = null

/**
 * Hands the rules the maintained lists (domain/fraud-lists.ts), loaded by the caller before the
 * first check: the lists are not read at start (issue 36).
 */
export function installDomainLists(lists: { disposable: string[]; disposableWildcards: string[]; providers: string[] }): void {
  disposable = { exact: new Set(lists.disposable), wildcard: new Set(lists.disposableWildcards) }
  providers = new Set(lists.providers)
}

/** The lists, or the error that a check ran before they were given (a bug: tracking/fraud-check.ts loads them first). */
function lists(): { disposable: { exact: Set<string>; wildcard: Set<string> }; providers: Set<string> } {
  if (!disposable || !providers) throw new Error('fraud rules: the domain lists were not loaded (installDomainLists)')
  return { disposable, providers }
}

/** Whether the domain (or a parent of it) is a disposable-mail service's, by the maintained list. */
export function isDisposableDomain(domain: string): boolean {
  const { disposable } = lists()
  for (const name of suffixes(domain)) if (disposable.exact.has(name) || disposable.wildcard.has(name)) return true
  return false
}

/** Names reserved for documentation and testing (RFC 2606, RFC 6761): nobody's organisation. */
const RESERVED = new Set(['example', 'test', 'invalid', 'localhost', 'example.com', 'example.net', 'example.org'])

/**
 * Whether addresses at this domain belong to anyone who signs up (a public mail provider's, by the
 * maintained list, a disposable service's, or a reserved name) rather than to one organisation.
 */
export function isSharedDomain(domain: string): boolean {
  const { providers } = lists()
  if (providers.has(domain) || isDisposableDomain(domain)) return true
  // The domain and its parents (suffixes), then the last label alone (.test, .example, …).
  for (const name of suffixes(domain)) if (RESERVED.has(name)) return true
  return RESERVED.has(domain.slice(domain.lastIndexOf('.') + 1))
}

/**
 * self_referral: the customer's address is the partner's (compared without case or +tag), or at
 * the partner's own domain when that domain is not a shared one.
 */
export function isSelfReferral(customerEmail: string | null, partnerEmail: string | null): boolean {
  const customer = addressParts(customerEmail)
  const partner = addressParts(partnerEmail)
  if (!customer || !partner) return false
  if (customer.domain !== partner.domain) return false
  return customer.local === partner.local || !isSharedDomain(customer.domain)
}

/** What a new commission is checked against. */
export interface CommissionFacts {
  /** The customer's addresses: its lead's, and the payment's (a processor's checkout), when known. */
  customerEmails: (string | null)[]
  partnerEmail: string | null
  /** The customer's click or lead came from an IP the partner applied or signed in from. */
  sameIp: boolean
  /** The customer's click's CLICK_SIGNALS bits (null: no click, or none set). */
  clickSignals: number | null
}

/** The flags the facts raise, in FRAUD_FLAGS order. */
export function fraudFlags(facts: CommissionFacts): FraudFlag[] {
  const flags: FraudFlag[] = []
  const emails = facts.customerEmails.filter((e): e is string => e !== null)
  if (emails.some((email) => isSelfReferral(email, facts.partnerEmail))) flags.push('self_referral')
  if (facts.sameIp) flags.push('same_ip')
  if (emails.some((email) => isDisposableDomain(addressParts(email)?.domain ?? ''))) flags.push('disposable_email')
  const bits = facts.clickSignals ?? 0
  if (bits & CLICK_SIGNALS.paidAds) flags.push('paid_ads')
  if (bits & CLICK_SIGNALS.burst) flags.push('click_burst')
  return flags
}

/** A new commission's review state: `held` when the program holds flagged commissions and it has a flag. */
export function reviewOf(mode: FraudReview, flags: FraudFlag[]): { flags: FraudFlag[]; held: boolean } {
  if (mode === 'off') return { flags: [], held: false }
  return { flags, held: mode === 'hold' && flags.length > 0 }
}

/**
 * Whether a click at `now` is in a burst: whether its link had over BURST_CLICKS clicks from its IP
 * in the hour before it, from the counts of the current UTC hour before this click (`current`) and
 * of the hour before (`previous`). The previous hour's clicks are weighted by the part of it still
 * inside the hour before the click (a sliding hour estimated from two fixed ones, exact while every
 * click is in the current hour). With 51 clicks before it, the 52nd click is in a burst.
 */
export function inBurst(previous: number, current: number, now: number): boolean {
  const elapsed = (now % HOUR_MS) / HOUR_MS
  return previous * (1 - elapsed) + current > BURST_CLICKS
}

/**
 * The address the visitor counts key on: the client's network (domain/network.ts), so that an
 * IPv6 holder rotating within their /64 is one visitor.
 */
export const visitorKey = networkOf

export const HOUR_MS = 3_600_000
