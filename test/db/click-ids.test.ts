// Click ids that carry their row (src/domain/click-id.ts, migration 0012): a click writes no index
// entry, its id is found by the row it seals, ids issued before are found by the partial index,
// and the migration keeps every click, count and old id of a database written before it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.gen.ts'
import { openDatabase, type Database as SvcDatabase } from '../../src/db/open.ts'
import { ClickIds } from '../../src/domain/click-id.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'
import type { SqliteDatabase } from '../../src/runtime/runtime.ts'

const DAY = 86_400_000
let dir: string
let database: SvcDatabase

/** Programs 1 and 2, each with a partner and a link (ids 1 and 2). */
function writePrograms(db: SqliteDatabase) {
  db.exec(`INSERT INTO accounts (id, email, created_at) VALUES (1, 'a@shop.test', 0);
    INSERT INTO advertisers (id, account_id, created_at) VALUES (1, 1, 0);
    INSERT INTO programs (id, advertiser_id, name, domain, commission_type, commission_rate, created_at)
      VALUES (1, 1, 'P1', 'shop.test', 'percent', 10, 0), (2, 1, 'P2', 'shop.test', 'percent', 10, 0);
    INSERT INTO partners (id, program_id, created_at) VALUES (1, 1, 0), (2, 2, 0);
    INSERT INTO links (id, program_id, partner_id, short_link, created_at) VALUES (1, 1, 1, 'one', 0), (2, 2, 2, 'two', 0);`)
}

/** A click of program `program` through the store of `on`, in a writer unit as the click route writes it. */
function click(program: 1 | 2, clickId: string | null = null, at = 5 * DAY, on: SvcDatabase = database): Promise<string> {
  const store = on.stores.tracking
  return on.writer.runSingleWrite(() =>
    store.insertClick({
      clickId,
      programId: program,
      linkId: program,
      partnerId: program,
      testMode: false,
      ip: '203.0.113.9',
      userAgent: null,
      createdAt: at,
      signals: null,
      unique: true,
    }),
  )
}

/** Every row of a query, its statement finalized (an unfinished one would hold a read snapshot open). */
function all<T>(db: SqliteDatabase, sql: string, ...params: unknown[]): T[] {
  const statement = db.prepare(sql) as ReturnType<SqliteDatabase['prepare']> & { finalize(): void }
  try {
    return statement.all(...(params as never[])) as T[]
  } finally {
    statement.finalize()
  }
}
const rows = (db: SqliteDatabase) =>
  all<{ id: number; clickId: string; programId: number }>(
    db,
    'SELECT id, click_id AS clickId, program_id AS programId FROM clicks ORDER BY id',
  )
const counts = (db: SqliteDatabase) =>
  all(db, 'SELECT program_id, partner_id, day, test_mode, clicks FROM daily_counts ORDER BY 1, 2, 3, 4')
const plan = (db: SqliteDatabase, sql: string, ...params: unknown[]) =>
  all<{ detail: string }>(db, `EXPLAIN QUERY PLAN ${sql}`, ...params)
    .map((r) => r.detail)
    .join('; ')
const keyOf = (db: SqliteDatabase) => all<{ value: string }>(db, "SELECT value FROM settings WHERE key = 'click_id_key'")[0].value

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-click-ids-'))
  database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  writePrograms(database.client)
})
afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('clicks of this version', () => {
  test('each new click takes the next row, and its id opens to that row', async () => {
    const issued = await Promise.all([click(1), click(1), click(2)])
    const stored = rows(database.client)
    expect(stored.map((r) => r.clickId)).toEqual(issued)
    expect(stored.map((r) => r.id)).toEqual([1, 2, 3])
    const key = keyOf(database.client)
    expect(key).toMatch(/^[0-9a-f]{32}$/)
    expect(issued.map((id) => new ClickIds(key).rowOf(id))).toEqual([1, 2, 3])
  })

  test('a click id is found in its program only, and a repeated one keeps the first row', async () => {
    const store = database.stores.tracking
    const first = await click(1, null, 6 * DAY)
    expect(await click(1, first, 7 * DAY)).toBe(first)
    expect(store.firstClick(1, first)).toMatchObject({ clickId: first, partnerId: 1, linkId: 1, createdAt: 6 * DAY, testMode: false })
    expect(store.firstClick(2, first)).toBeNull()
    expect(store.programOfClick(first)).toBe(1)
    expect(store.knownElsewhere(2, first, null)).toBe(true)
    expect(store.knownElsewhere(1, first, null)).toBe(false)
  })

  test('an id of the right shape that no click was given is unknown: forged, tampered, or sealed under another key', async () => {
    const store = database.stores.tracking
    const real = await click(1)
    const row = rows(database.client).find((r) => r.clickId === real)!.id
    const tampered = real.slice(0, 27) + (real[27] === 'A' ? 'B' : 'A')
    const otherKey = new ClickIds('f0e0d0c0b0a090807060504030201000').issue(row)
    for (const id of [tampered, otherKey, `clk_${'A'.repeat(24)}`, `clk_${'_'.repeat(24)}`]) {
      expect(store.programOfClick(id)).toBeNull()
      expect(store.firstClick(1, id)).toBeNull()
    }
  })

  test('no click of this version enters the click_id index', async () => {
    await click(2)
    const [entries] = all<{ n: number }>(
      database.client,
      'SELECT count(*) AS n FROM clicks INDEXED BY clicks_click_id_legacy WHERE length(click_id) <> 28',
    )
    expect(entries.n).toBe(0)
  })

  test('a click id is read by its row; an older one through the partial index', () => {
    const { client } = database
    expect(plan(client, 'SELECT * FROM "clicks" WHERE "id" = ? AND "click_id" = ?', 1, 'x')).toContain('USING INTEGER PRIMARY KEY')
    expect(plan(client, 'SELECT * FROM "clicks" WHERE "click_id" = ? AND length("click_id") <> 28 ORDER BY "id" LIMIT 1', 'x')).toContain(
      'USING INDEX clicks_click_id_legacy',
    )
  })

  test('rows another writer took are skipped: the next click numbers from the table again', async () => {
    const next = rows(database.client).at(-1)!.id + 1
    const other = new Database(join(dir, 'svc.db'))
    other
      .prepare("INSERT INTO clicks (id, click_id, program_id, link_id, partner_id, created_at) VALUES (?, 'clk_tool', 1, 1, 1, 0)")
      .run(next)
    other.close()
    const id = await click(1)
    expect(rows(database.client).at(-1)).toEqual({ id: next + 1, clickId: id, programId: 1 })
  })
})

test('the migration keeps the clicks, counts and ids written before it; clicks after it continue the rows', async () => {
  const path = join(dir, 'before.db')
  const db = new Database(path, { create: true, strict: true })
  const client = db as unknown as SqliteDatabase
  try {
    migrate(
      client,
      migrations.slice(
        0,
        migrations.findIndex((m) => m.tag === '0012_click_row_ids'),
      ),
    )
    writePrograms(client)
    // Both shapes issued before: 26 characters (random), 27 (time-prefixed); one repeated, rows with gaps.
    const old = [
      { id: 3, clickId: `clk_${'r'.repeat(22)}`, programId: 1, at: 1 * DAY },
      { id: 7, clickId: `clk_0AbCdEf${'t'.repeat(16)}`, programId: 2, at: 2 * DAY },
      { id: 9, clickId: `clk_${'r'.repeat(22)}`, programId: 1, at: 3 * DAY },
    ]
    const insert = client.prepare(
      'INSERT INTO clicks (id, click_id, program_id, link_id, partner_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const c of old) insert.run(c.id, c.clickId, c.programId, c.programId, c.programId, c.at)
    const before = counts(client)
    migrate(client)
    expect(counts(client)).toEqual(before)
    expect(rows(client)).toEqual(old.map(({ id, clickId, programId }) => ({ id, clickId, programId })))
    const table = client.prepare("SELECT sql FROM sqlite_master WHERE name = 'clicks'").get() as { sql: string }
    expect(table.sql).not.toContain('AUTOINCREMENT')
    expect(client.prepare("SELECT name FROM sqlite_sequence WHERE name = 'clicks'").all()).toEqual([])
    const indexes = client.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'clicks'").all() as {
      name: string
    }[]
    expect(indexes.map((i) => i.name)).toEqual(['clicks_click_id_legacy'])
    expect(keyOf(client)).toMatch(/^[0-9a-f]{32}$/)
    expect(keyOf(client)).not.toBe(keyOf(database.client))
  } finally {
    db.close()
  }
  // The migrated file opened as the service opens it: old ids found (first row), new clicks counted.
  const migrated = openDatabase(bunRuntime, path)
  try {
    const store = migrated.stores.tracking
    expect(store.firstClick(1, `clk_${'r'.repeat(22)}`)).toMatchObject({ createdAt: 1 * DAY, partnerId: 1 })
    expect(store.programOfClick(`clk_0AbCdEf${'t'.repeat(16)}`)).toBe(2)
    expect(store.firstClick(2, `clk_${'r'.repeat(22)}`)).toBeNull()
    const repeated = await click(1, `clk_${'r'.repeat(22)}`, 3 * DAY, migrated)
    const fresh = await click(1, null, 3 * DAY, migrated)
    expect(repeated).toBe(`clk_${'r'.repeat(22)}`)
    expect(rows(migrated.client).slice(-2)).toEqual([
      { id: 10, clickId: repeated, programId: 1 },
      { id: 11, clickId: fresh, programId: 1 },
    ])
    expect(store.firstClick(1, fresh)).toMatchObject({ createdAt: 3 * DAY })
    const day3 = migrated.client.prepare('SELECT clicks FROM daily_counts WHERE program_id = 1 AND day = 3').get() as { clicks: number }
    expect(day3.clicks).toBe(3)
  } finally {
    migrated.close()
  }
})
