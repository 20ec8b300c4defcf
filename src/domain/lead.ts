/**
 * The lead endpoint's state rules (docs/api.md, Customer states; docs/decisions.md): which
 * customer a lead names, and what happens to it. Pure: facts in, a tagged decision out.
 */

export type CustomerStatus = 'provisional' | 'lead' | 'converted'

export interface LeadCustomer {
  id: number
  status: CustomerStatus
  convertedAt: number | null
}

export interface FirstClick {
  clickId: string
  partnerId: number
  linkId: number
  createdAt: number
  /** Test data: sent with additional_data.test_mode, or on the CLI test chain's own link. */
  testMode: boolean
  /** The visitor's IP as the click route saw it, and what the click path saw (domain/fraud.ts CLICK_SIGNALS): read for the fraud rules. */
  ip?: string | null
  signals?: number | null
}

export interface LeadFacts {
  /** Browser mode under lead_auth server_required: the lead stays provisional. */
  provisional: boolean
  /** The program's customer with this customer_key, if any. */
  byKey: LeadCustomer | null
  /** The program's customer of this click_id, if any. */
  byClick: LeadCustomer | null
  /** The first click of click_id in the program (first click wins), if any. */
  click: FirstClick | null
  /** The identifiers are known, but only in another program. */
  foreign: boolean
}

export type LeadDecision =
  | { kind: 'create'; status: 'provisional' | 'lead'; click: FirstClick }
  | { kind: 'settle'; customerId: number; status: 'lead' | 'converted' }
  | { kind: 'unchanged'; customerId: number; status: 'provisional' }
  | { kind: 'reject'; reason: 'not_found' | 'other_program' }
  | { kind: 'reject'; reason: 'status_locked'; status: CustomerStatus }

/**
 * Decides a lead. A provisional (browser) lead resolves through its click only, since it saves
 * no customer_key; repeating it changes nothing. A keyed lead settles a provisional customer
 * (to `converted` if a sale already came through its click) and creates one from a known click.
 * A customer already a lead or later is refused with its status. docs/decisions.md: a lead that
 * resolves neither a click nor a known customer is refused and records nothing (not rule 3).
 */
export function decideLead(facts: LeadFacts): LeadDecision {
  const { provisional, byKey, byClick, click, foreign } = facts
  const customer = provisional ? byClick : (byKey ?? byClick)
  if (customer) {
    if (customer.status !== 'provisional') return { kind: 'reject', reason: 'status_locked', status: customer.status }
    if (provisional) return { kind: 'unchanged', customerId: customer.id, status: 'provisional' }
    return { kind: 'settle', customerId: customer.id, status: customer.convertedAt === null ? 'lead' : 'converted' }
  }
  if (click) return { kind: 'create', status: provisional ? 'provisional' : 'lead', click }
  return { kind: 'reject', reason: foreign && !provisional ? 'other_program' : 'not_found' }
}
