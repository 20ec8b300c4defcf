// Clicks in daily_counts (src/db/tracking-store.ts, migration 0012): a batch's clicks are counted
// once per key before its COMMIT, in its transaction; whatever fails takes its counts with it.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Database } from '../../src/db/open.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'

const DAY = 86_400_000
let dir: string
let database: Database
/** When set, the batch fails after the store has written its counts (a COMMIT that fails). */
let failNextBatch = false

const click = (program: 1 | 2, at: number, testMode = false) => ({
  clickId: null,
  programId: program,
  linkId: program,
  partnerId: program,
  testMode,
  ip: null,
  userAgent: null,
  createdAt: at,
  signals: null,
  unique: true,
})

/** daily_counts' clicks against the click rows themselves, by key. */
function compare() {
  const query = (sql: string) => database.client.prepare(sql).all()
  return {
    counted: query('SELECT program_id, partner_id, day, test_mode, clicks FROM daily_counts WHERE clicks > 0 ORDER BY 1, 2, 3, 4'),
    rows: query(
      'SELECT program_id, partner_id, created_at / 86400000 AS day, test_mode, count(*) AS clicks FROM clicks GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4',
    ),
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-click-counts-'))
  database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  database.client.exec(`INSERT INTO accounts (id, email, created_at) VALUES (1, 'a@shop.test', 0);
    INSERT INTO advertisers (id, account_id, created_at) VALUES (1, 1, 0);
    INSERT INTO programs (id, advertiser_id, name, domain, commission_type, commission_rate, created_at)
      VALUES (1, 1, 'P1', 'shop.test', 'percent', 10, 0), (2, 1, 'P2', 'shop.test', 'percent', 10, 0);
    INSERT INTO partners (id, program_id, created_at) VALUES (1, 1, 0), (2, 2, 0);
    INSERT INTO links (id, program_id, partner_id, short_link, created_at) VALUES (1, 1, 1, 'one', 0), (2, 2, 2, 'two', 0);`)
  database.writer.beforeCommit(() => {
    if (!failNextBatch) return
    failNextBatch = false
    throw new Error('the disk is full')
  })
})
afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a batch of clicks over programs, days and modes is counted once per key, exactly', async () => {
  const store = database.stores.tracking
  const clicks = Array.from({ length: 200 }, (_, i) => click(i % 3 === 0 ? 2 : 1, (10 + (i % 4)) * DAY + i, i % 7 === 0))
  const batches = database.writer.stats.batches
  await Promise.all(clicks.map((c) => database.writer.runSingleWrite(() => store.insertClick(c))))
  expect(database.writer.stats.batches).toBe(batches + 1)
  const { counted, rows } = compare()
  expect(counted).toEqual(rows)
  expect((rows as { clicks: number }[]).reduce((n, r) => n + r.clicks, 0)).toBe(200)
})

test('a batch that fails before COMMIT keeps neither its clicks nor their counts, and the next batch counts its own only', async () => {
  const store = database.stores.tracking
  const before = compare()
  failNextBatch = true
  const failed = await Promise.allSettled([1, 2, 3].map(() => database.writer.runSingleWrite(() => store.insertClick(click(1, 20 * DAY)))))
  expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected', 'rejected'])
  expect(compare()).toEqual(before)
  await database.writer.runSingleWrite(() => store.insertClick(click(1, 20 * DAY)))
  const { counted, rows } = compare()
  expect(counted).toEqual(rows)
  expect(counted).toContainEqual({ program_id: 1, partner_id: 1, day: 20, test_mode: 0, clicks: 1 })
})

test('a click inside a unit with its own SAVEPOINT is counted at once, and undone with the unit', async () => {
  const store = database.stores.tracking
  const undone = database.writer.run(() => {
    store.insertClick(click(2, 30 * DAY))
    throw new Error('the unit changes its mind')
  })
  const kept = database.writer.run(() => store.insertClick(click(2, 31 * DAY)))
  await expect(undone).rejects.toThrow('the unit changes its mind')
  await kept
  const { counted, rows } = compare()
  expect(counted).toEqual(rows)
  expect(counted).not.toContainEqual(expect.objectContaining({ day: 30 }))
  expect(counted).toContainEqual({ program_id: 2, partner_id: 2, day: 31, test_mode: 0, clicks: 1 })
})
