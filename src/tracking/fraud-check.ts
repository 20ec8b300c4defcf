import type { SaleFacts } from '../domain/attribution.ts'
import { type FraudFlag, fraudFlags, reviewOf, installDomainLists } from '../domain/fraud.ts'
import type { FirstClick } from '../domain/lead.ts'
import type { Program } from '../db/schema.ts'
import type { TrackingDeps } from './deps.ts'
import { ipHash } from './ip-hash.ts'

/** A new commission's flags and whether it is held (docs/decisions.md, Fraud signals and review). */
export interface Review {
  flags: FraudFlag[]
  held: boolean
}

const UNCHECKED: Review = { flags: [], held: false }

/**
 * Checks a new commission of `partnerId` against the fraud rules, from the facts collected where
 * they arose: the customer's emails (its lead's and the payment's), the customer's first click
 * (its IP and signal bits) and lead IP, and the partner's email and IPs. Under fraud_review `off`
 * nothing is read. Runs inside the sale's writer unit.
 */
export function checkCommission(
  deps: TrackingDeps,
  program: Pick<Program, 'id' | 'fraudReview'>,
  facts: SaleFacts,
  partner: { id: number; email: string | null; knownIps: boolean },
  paymentEmail: string | null,
): Review {
  if (program.fraudReview === 'off') return UNCHECKED
  const { tracking, partners } = deps.database.stores
  const customer = facts.kind === 'customer' || facts.kind === 'named' ? facts.customer : null
  const click: FirstClick | null =
    facts.kind === 'click' ? facts.click : customer?.clickId ? tracking.firstClick(program.id, customer.clickId) : null
  const sameIp =
    partner.knownIps && partners.usedIp(partner.id, click ? ipHash(deps.secret, click.ip ?? null) : null, customer?.leadIpHash ?? null)
  const flags = fraudFlags({
    // Both: a throwaway address on the lead does not hide the partner's own at the checkout.
    customerEmails: [customer?.email ?? null, paymentEmail],
    partnerEmail: partner.email,
    sameIp,
    clickSignals: click?.signals ?? null,
  })
  return reviewOf(program.fraudReview, flags)
}

let listsLoaded: Promise<void> | null = null

/**
 * Loads the fraud rules' domain lists once (domain/fraud-lists.ts): awaited before a unit that may
 * check a commission (a sale, a processor event), so that the lists are read on the first fraud
 * check, not at start (issue 36). Resolved, it costs a microtask.
 */
export function fraudListsReady(): Promise<void> {
  listsLoaded ??= import('../domain/fraud-lists.ts').then(({ domainLists }) => installDomainLists(domainLists))
  return listsLoaded
}
