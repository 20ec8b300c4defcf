// The payout suites' steps: partners with payout details and sales that make them owed, over real HTTP.
import type { Api, Fixture } from '../helpers.ts'
import { kit, unique } from '../http/track/kit.ts'

export function payoutKit(api: Api) {
  const k = kit(api)
  /** A sale of `amountCents` by a new customer of `f`'s partner (its commission is the program's terms). */
  const sale = async (f: Fixture, amountCents: number, currency = 'USD') => {
    const customerKey = unique('cust')
    await k.customer(f, customerKey)
    const reply = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, amount_cents: amountCents, currency })
    if (reply.status !== 200) throw new Error(`sale: ${reply.status} ${JSON.stringify(reply.body)}`)
  }
  /** A further partner of `f`'s program with its own link and these payout details (none when method is null). */
  const partner = async (f: Fixture, method: string | null, details?: string) => {
    const other = await k.partnerLink(f, unique('p').replace(/_/g, '-'))
    const email = `${other.shortLink}@partners.test`
    await api.admin('PATCH', `/programs/${f.programId}/partners/${other.partnerId}`, { email })
    if (method) {
      const reply = await api.admin('PATCH', `/programs/${f.programId}/partners/${other.partnerId}`, {
        payout_method: method,
        payout_details: details,
      })
      if (reply.status !== 200) throw new Error(`payout details: ${JSON.stringify(reply.body)}`)
    }
    return { ...other, email }
  }
  /** Runs payouts now: answers the payouts made. */
  const run = async (f: Fixture) => (await api.admin('POST', `/programs/${f.programId}/payouts`)).body.data as any[]
  return { ...k, sale, partner, run }
}
