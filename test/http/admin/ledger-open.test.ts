// docs/ledger.md and migration 0016: a database from before the chain existed has its entries
// linked when the server opens it, before anything else writes, exactly as if they had been linked
// when booked. The server is stopped, the file is put back as it was before 0016 (no links), and a
// new server over the same file answers the same statement.
import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Api, startApi } from '../../helpers.ts'
import { kit, unique } from '../track/kit.ts'

const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-open-'))
const env = { DATABASE_PATH: join(dir, 'svc.db') }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const statementOf = async (api: Api, programId: number, partnerId: number) => {
  const m = new Date(api.clock.now()).toISOString().slice(0, 7)
  const reply = await api.admin('GET', `/programs/${programId}/partners/${partnerId}/statements/${m}`)
  expect(reply.status).toBe(200)
  return reply.body.data as { count: number; head: string; entries: Record<string, unknown>[] }
}

test('entries booked before the chain existed are linked when the database opens, exactly as if they had been linked when booked', async () => {
  const first = await startApi({ env })
  const k = kit(first)
  const f = await first.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, holding_period_days: 0 })
  const customerKey = unique('cust')
  await k.customer(f, customerKey)
  const ids = [unique('txn'), unique('txn'), unique('txn')]
  for (const [i, transactionId] of ids.entries()) {
    expect((await k.sale(f, { transaction_id: transactionId, customer_key: customerKey, amount_cents: 10_000 + i })).status).toBe(200)
    first.clock.advance(1000)
  }
  await k.refund(f, { transaction_id: ids[1] })
  const run = await first.admin('POST', `/programs/${f.programId}/payouts`)
  expect((await first.admin('POST', `/payouts/${run.body.data[0].payout_id}/cancel`)).status).toBe(200)
  const live = await statementOf(first, f.programId, f.partnerId)
  const madeAt = first.clock.now()
  expect(live.entries.map((e) => e.kind)).toEqual(['commission', 'commission', 'commission', 'reversal', 'payout', 'payout_canceled'])
  await first.stop()

  // The file as a database from before migration 0016 holds it: no entry linked.
  const file = new Database(env.DATABASE_PATH)
  file.exec('UPDATE commissions SET chain_seq = NULL, chain_hash = NULL')
  file.exec('UPDATE payouts SET chain_seq = NULL, chain_hash = NULL, cancel_seq = NULL, cancel_hash = NULL')
  file.close()

  const second = await startApi({ env })
  second.clock.set(madeAt)
  try {
    const linked = await statementOf(second, f.programId, f.partnerId)
    expect({ count: linked.count, head: linked.head, entries: linked.entries }).toEqual({
      count: live.count,
      head: live.head,
      entries: live.entries,
    })
  } finally {
    await second.stop()
  }
})
