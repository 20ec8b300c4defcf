// The payout suites' steps: partners with payout details and sales that make them owed, over real HTTP.
import { verifyStatement } from '../../src/domain/statement.ts'
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
  /** A payout as GET /payouts/:id answers it. */
  const payout = async (id: number) => (await api.admin('GET', `/payouts/${id}`)).body.data[0]
  /** Whether the partner's statement of this month (on the server's clock) verifies. */
  const statementCheck = async (f: Fixture, partnerId: number) => {
    const month = new Date(api.clock.now()).toISOString().slice(0, 7)
    return verifyStatement((await api.admin('GET', `/programs/${f.programId}/partners/${partnerId}/statements/${month}`)).body.data)
  }
  return { ...k, sale, partner, run, payout, statementCheck }
}

/** Waits (real time, 5 s at most) until `check` holds: the payout sender runs on its own. */
export async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return
    await Bun.sleep(20)
  }
  throw new Error('timed out')
}
