// sale_blocks (src/db/schema.ts, migration 0011) and src/db/sale-pages.ts: a program's sales are
// paged without an index on (program_id, id). The trigger and the migration's fill write the blocks
// that SALE_BLOCK_BITS says, and every page equals what filtering all the sales would give, for
// programs with a dense, a sparse and no share of the ids, from any cursor.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.gen.ts'
import { openDatabase, type Database as SvcDatabase } from '../../src/db/open.ts'
import { SALE_BLOCK_BITS } from '../../src/db/sale-pages.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'
import type { SqliteDatabase } from '../../src/runtime/runtime.ts'

const BLOCK = 2 ** SALE_BLOCK_BITS
let dir: string
let database: SvcDatabase

/** Programs 1 (most ids), 2 (a few, far apart) and 3 (none); ids across several blocks, with gaps. */
function saleIds(): { id: number; programId: number }[] {
  const sales: { id: number; programId: number }[] = []
  let seed = 7
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  for (let id = 1; id <= 6 * BLOCK; id += 1 + Math.floor(random() * 40)) sales.push({ id, programId: random() < 0.02 ? 2 : 1 })
  // Both sides of block edges, and a block of its own far above the rest.
  for (const id of [BLOCK - 1, BLOCK, 3 * BLOCK - 1, 3 * BLOCK, 9 * BLOCK + 5])
    if (!sales.some((s) => s.id === id)) sales.push({ id, programId: 2 })
  return sales.sort((a, b) => a.id - b.id)
}
const SALES = saleIds()

function writeSales(db: SqliteDatabase) {
  db.exec(`INSERT INTO accounts (id, email, created_at) VALUES (1, 'a@shop.test', 0);
    INSERT INTO advertisers (id, account_id, created_at) VALUES (1, 1, 0);
    INSERT INTO programs (id, advertiser_id, name, domain, commission_type, commission_rate, created_at)
      VALUES (1, 1, 'P1', 'shop.test', 'percent', 10, 0), (2, 1, 'P2', 'shop.test', 'percent', 10, 0), (3, 1, 'P3', 'shop.test', 'percent', 10, 0);`)
  const sale = db.prepare(
    "INSERT INTO sales (id, program_id, transaction_id, amount_cents, currency, occurred_at, created_at) VALUES (?, ?, ?, 1000, 'USD', 0, ?)",
  )
  db.exec('BEGIN')
  for (const { id, programId } of SALES) sale.run(id, programId, `t${id}`, id)
  db.exec('COMMIT')
}

const blocks = (db: SqliteDatabase) => db.prepare('SELECT block, program_id AS programId FROM sale_blocks ORDER BY block, program_id').all()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-sale-pages-'))
  database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  writeSales(database.client)
})
afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the trigger writes each program block that SALE_BLOCK_BITS names, once', () => {
  const expected = [...new Set(SALES.map((s) => `${Math.floor(s.id / BLOCK)}:${s.programId}`))]
    .map((key) => key.split(':').map(Number))
    .map(([block, programId]) => ({ block, programId }))
    .sort((a, b) => a.block - b.block || a.programId - b.programId)
  expect(blocks(database.client)).toEqual(expected)
  expect(expected.some((b) => b.block === 9 && b.programId === 2)).toBe(true)
})

test('the migration fills sale_blocks from the sales written before it', () => {
  const db = new Database(join(dir, 'before.db'), { create: true, strict: true })
  try {
    const client = db as unknown as SqliteDatabase
    migrate(
      client,
      migrations.slice(
        0,
        migrations.findIndex((m) => m.tag === '0011_sale_blocks'),
      ),
    )
    writeSales(client)
    migrate(client)
    expect(blocks(client)).toEqual(blocks(database.client))
    const indexes = client.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sales'").all() as { name: string }[]
    expect(indexes.map((i) => i.name)).not.toContain('sales_program_id')
  } finally {
    db.close()
  }
})

test('every page of every program equals the filtered list, from any cursor', () => {
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id)
  for (const programId of [1, 2, 3, 4]) {
    const all = SALES.filter((s) => s.programId === programId)
      .map((s) => s.id)
      .reverse()
    for (const limit of [1, 3, 50, 200]) {
      // Walked page by page with the cursors the pages give.
      const walked: number[] = []
      let cursor: number | null = null
      for (;;) {
        const page = ids(database.stores.lists.page('sales', programId, limit, cursor))
        expect(page.length).toBeLessThanOrEqual(limit)
        walked.push(...page)
        if (page.length < limit) break
        cursor = page[page.length - 1]
      }
      expect(walked).toEqual(all)
    }
    // Cursors that are no sale of the program: block edges, gaps, past the newest, below the oldest.
    for (const cursor of [1, 2, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK, 5 * BLOCK + 17, 9 * BLOCK + 5, 9 * BLOCK + 6, 10 ** 9]) {
      expect(ids(database.stores.lists.page('sales', programId, 5, cursor))).toEqual(all.filter((id) => id < cursor).slice(0, 5))
    }
  }
})

test("the dashboard's sales page reads the same blocks", () => {
  const dashboard = database.stores.dashboard
  const first = dashboard.salesPage(2, null)
  const all = SALES.filter((s) => s.programId === 2)
    .map((s) => s.id)
    .reverse()
  expect(first.rows.map((r) => r.id)).toEqual(all.slice(0, first.rows.length))
  expect(first.rows.length).toBe(Math.min(all.length, 50))
})
