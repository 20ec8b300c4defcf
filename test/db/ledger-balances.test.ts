// ledger_balances (src/db/schema.ts, migration 0009_ledger_balance_triggers): the rows its
// migration fills from a ledger written before it are the rows that its trigger (new entries) and
// the payout store (runs, payments, cancels) keep when the same ledger is written after it.
import { expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.gen.ts'
import { openDatabase } from '../../src/db/open.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'
import type { SqliteDatabase } from '../../src/runtime/runtime.ts'

const DAY = 86_400_000

interface PayoutWrites {
  create(partnerId: number, currency: string, at: number, entryIds: number[]): void
  pay(payoutId: number, at: number): void
  cancel(payoutId: number, at: number): void
}

/**
 * Two partners, two currencies; commissions with and without reversals (before and after a payout); payouts
 * made, paid and canceled through `payouts`; a test-mode sale.
 */
function writeLedger(db: SqliteDatabase, payouts: PayoutWrites) {
  db.exec(`INSERT INTO accounts (id, email, created_at) VALUES (1, 'a@shop.test', 0);
    INSERT INTO advertisers (id, account_id, created_at) VALUES (1, 1, 0);
    INSERT INTO programs (id, advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (1, 1, 'P', 'shop.test', 'percent', 10, 0);
    INSERT INTO partners (id, program_id, created_at) VALUES (1, 1, 0), (2, 1, 0);`)
  const sale = db.prepare(
    'INSERT INTO sales (id, program_id, transaction_id, amount_cents, currency, occurred_at, test_mode, created_at) VALUES (?, 1, ?, 1000, ?, ?, ?, ?)',
  )
  const entry = db.prepare(
    'INSERT INTO commissions (id, program_id, sale_id, partner_id, kind, amount_cents, currency, test_mode, created_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)',
  )
  const partnerOf = (i: number) => (i % 3 === 0 ? 2 : 1)
  const currencyOf = (i: number) => (i % 2 ? 'USD' : 'EUR')
  const reverse = (i: number, at: number) => entry.run(100 + i, i, partnerOf(i), 'reversal', -100 * i, currencyOf(i), i === 12 ? 1 : 0, at)
  for (let i = 1; i <= 12; i++) {
    sale.run(i, `t${i}`, currencyOf(i), i * DAY, i === 12 ? 1 : 0, i * DAY)
    entry.run(i, i, partnerOf(i), 'commission', 100 * i, currencyOf(i), i === 12 ? 1 : 0, i * DAY)
  }
  // Reversed before any payout (3, 4); reversed after going into payouts (5 paid, 6 then canceled); the test-mode sale (12).
  for (const i of [3, 4, 12]) reverse(i, (i + 1) * DAY)
  payouts.create(1, 'USD', 20 * DAY, [1, 5, 7])
  payouts.create(1, 'EUR', 20 * DAY, [2, 8])
  payouts.create(2, 'EUR', 20 * DAY, [6])
  payouts.pay(1, 21 * DAY)
  payouts.cancel(2, 21 * DAY)
  for (const i of [5, 6]) reverse(i, 21 * DAY)
  payouts.create(1, 'EUR', 22 * DAY, [2])
  payouts.create(1, 'USD', 22 * DAY, [105])
  payouts.cancel(3, 22 * DAY)
}

/** The payout writes as plain SQL, as a database written before migration 0008 holds them. */
function sqlPayouts(db: SqliteDatabase): PayoutWrites {
  let next = 1
  return {
    create(partnerId, currency, at, entryIds) {
      const id = next++
      db.prepare(
        "INSERT INTO payouts (id, program_id, partner_id, currency, amount_cents, commissions, status, created_at) VALUES (?, 1, ?, ?, 0, ?, 'pending', ?)",
      ).run(id, partnerId, currency, entryIds.length, at)
      for (const entryId of entryIds)
        db.prepare("INSERT INTO payout_entries (payout_id, ledger_entry_id, status) VALUES (?, ?, 'pending')").run(id, entryId)
    },
    pay: (id, at) => {
      db.prepare("UPDATE payout_entries SET status = 'paid' WHERE payout_id = ?").run(id)
      db.prepare("UPDATE payouts SET status = 'paid', paid_at = ? WHERE id = ?").run(at, id)
    },
    cancel: (id, at) => {
      db.prepare("UPDATE payout_entries SET status = 'canceled' WHERE payout_id = ?").run(id)
      db.prepare("UPDATE payouts SET status = 'canceled', canceled_at = ? WHERE id = ?").run(at, id)
    },
  }
}

function withDatabase(run: (db: Database) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-balances-'))
  const db = new Database(join(dir, 'svc.db'), { create: true, strict: true })
  try {
    run(db)
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const rows = (db: SqliteDatabase) =>
  db.prepare('SELECT * FROM ledger_balances ORDER BY program_id, partner_id, currency, kind, payout, pair, day').all()

test('the balances filled by the migration are those the trigger and the payout store keep for the same writes', () => {
  let kept: unknown[] = []
  const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-balances-'))
  const database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  try {
    const store = database.stores.payouts
    writeLedger(database.client, {
      create: (partnerId, currency, at, entryIds) => void store.createPayouts(1, [{ partnerId, currency, amountCents: 0, entryIds }], at),
      pay: (id, at) => expect(store.markPaid(id, null, at).kind).toBe('ok'),
      cancel: (id, at) => expect(store.cancel(id, at).kind).toBe('ok'),
    })
    kept = rows(database.client)
  } finally {
    database.close()
    rmSync(dir, { recursive: true, force: true })
  }
  withDatabase((db) => {
    const client = db as unknown as SqliteDatabase
    migrate(
      client,
      migrations.slice(
        0,
        migrations.findIndex((m) => m.tag === '0008_ledger_balances'),
      ),
    )
    writeLedger(client, sqlPayouts(client))
    migrate(client)
    expect(rows(client)).toEqual(kept)
  })
  // Spot checks: 1 and 7 are paid; 5 was paid, then reversed, its reversal is in a pending payout; 8 and 10
  // (EUR) are open, one row per day they are due (written without due_at, each got its program's 30 days, migration 0021); 3 and its reversal cancel out, so do 6 and its reversal once their
  // payout is canceled; sale 12 (test mode) is not counted; no row is empty.
  const find = (partner: number, currency: string, kind: string, payout: string, pair: string) =>
    kept
      .filter((r: any) => r.partner_id === partner && r.currency === currency && r.kind === kind && r.payout === payout && r.pair === pair)
      .map((r: any) => [r.day, r.amount_cents, r.entries])
  expect(find(1, 'USD', 'commission', 'paid', 'none')).toEqual([[-1, 800, 2]])
  expect(find(1, 'USD', 'commission', 'paid', 'pending')).toEqual([[-1, 500, 1]])
  expect(find(1, 'USD', 'reversal', 'pending', 'paid')).toEqual([[-1, -500, 1]])
  expect(find(1, 'EUR', 'commission', '', 'none')).toEqual([
    [38, 800, 1],
    [40, 1000, 1],
  ])
  expect(find(2, 'USD', 'commission', '', '')).toEqual([[-1, 300, 1]])
  const partner2Eur = kept.filter((r: any) => r.partner_id === 2 && r.currency === 'EUR') as { amount_cents: number; entries: number }[]
  expect(partner2Eur.map((r) => [r.amount_cents, r.entries])).toEqual([
    [600, 1],
    [-600, 1],
  ])
  expect(kept.every((r: any) => r.entries > 0)).toBe(true)
})
