/**
 * How long a payout run holds the writer (issue 13): `bun bench/payout-run.ts` (never run by
 * `npm test`). One program with 100 partners and 100,000 live commissions, every tenth refunded;
 * the first run pays them all, the second finds nothing new; then the statuses of a page of 50
 * ledger entries (the commissions read route) and the grouped balances (program, one partner). BENCH_PAYOUT_ENTRIES changes the size.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/db/open.ts'
import { balances, dueEntries, planPayouts } from '../src/domain/payout.ts'
import { bunRuntime } from '../src/runtime/bun.ts'

const entries = Number(process.env.BENCH_PAYOUT_ENTRIES ?? 100_000)
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-payout-'))
const database = openDatabase(bunRuntime, join(dir, 'svc.db'))
const { client } = database
client.exec(`INSERT INTO accounts (email, created_at) VALUES ('bench@example.test', 0);
INSERT INTO advertisers (account_id, created_at) VALUES (1, 0);
INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, holding_period_days, created_at) VALUES (1, 'bench', 'shop.test', 'percent', 10, 0, 0);`)
client.exec('BEGIN')
for (let p = 0; p < 100; p++) client.prepare('INSERT INTO partners (program_id, created_at) VALUES (1, 0)').run()
const sale = client.prepare(
  "INSERT INTO sales (program_id, transaction_id, amount_cents, currency, occurred_at, created_at) VALUES (1, ?, 1000, 'USD', 0, 0)",
)
const ledger = client.prepare(
  "INSERT INTO commissions (program_id, sale_id, partner_id, kind, amount_cents, currency, created_at) VALUES (1, ?, ?, ?, ?, 'USD', ?)",
)
for (let i = 1; i <= entries; i++) {
  sale.run(`t${i}`)
  ledger.run(i, 1 + (i % 100), 'commission', 100, i)
  if (i % 10 === 0) ledger.run(i, 1 + (i % 100), 'reversal', -100, i + 1)
}
client.exec('COMMIT')

const store = database.stores.payouts
const now = Date.now()
for (const round of ['first run', 'second run']) {
  const started = performance.now()
  const created = await database.writer.run(() =>
    store.createPayouts(1, planPayouts(dueEntries(store.unpaidLedger(1), 0, now, now), 0), now),
  )
  console.log(`${round}: ${created.length} payouts in ${(performance.now() - started).toFixed(1)} ms`)
}
const started = performance.now()
store.ledgerOf(Array.from({ length: 50 }, (_, i) => entries - i))
console.log(`statuses of a page of 50 entries: ${(performance.now() - started).toFixed(2)} ms`)
for (const [what, partnerId] of [
  ['balances of every partner', undefined],
  ['balances of one partner', 1],
] as const) {
  const t = performance.now()
  balances(database.stores.balances.ledgerGroups(1, now, partnerId))
  console.log(`${what}: ${(performance.now() - t).toFixed(1)} ms`)
}
database.close()
rmSync(dir, { recursive: true, force: true })
