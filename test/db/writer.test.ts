import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Database as Db } from '../../src/db/open.ts'
import { Writer } from '../../src/db/writer.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'

let dir: string
let database: Db
const insert = (key: string) => () => database.client.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, 'v')

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-writer-'))
  database = openDatabase(bunRuntime, join(dir, 'svc.db'))
})
afterEach(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the group-commit writer', () => {
  test('beforeCommit writes run once per batch, after every unit, inside the transaction; a throw fails the whole batch', async () => {
    const seen: string[] = []
    let fail = false
    database.writer.beforeCommit(() => {
      const keys = database.client.prepare("SELECT key FROM settings WHERE key LIKE 'hook-%' ORDER BY key").all() as { key: string }[]
      seen.push(keys.map((k) => k.key).join(','))
      insert(`hook-end-${seen.length}`)()
      if (fail) throw new Error('no room')
    })
    const modes: boolean[] = []
    const single = (key: string) => () => {
      modes.push(database.writer.inSingleWrite)
      insert(key)()
    }
    await Promise.all([database.writer.runSingleWrite(single('hook-a')), database.writer.run(single('hook-b'))])
    expect(modes).toEqual([true, false])
    expect(database.writer.inSingleWrite).toBe(false)
    expect(seen).toEqual(['hook-a,hook-b'])
    fail = true
    const failed = await Promise.allSettled([database.writer.runSingleWrite(insert('hook-c'))])
    expect(failed[0].status).toBe('rejected')
    const keys = database.client.prepare("SELECT key FROM settings WHERE key LIKE 'hook-%' ORDER BY key").all()
    // The failed batch's unit and its end are both gone; the first batch's end stayed.
    expect(keys).toEqual([{ key: 'hook-a' }, { key: 'hook-b' }, { key: 'hook-end-1' }])
  })

  test('units queued together share one transaction and fail or succeed independently', async () => {
    const before = database.writer.stats.batches
    const outcomes = await Promise.allSettled([
      database.writer.run(insert('one')),
      database.writer.run(insert('one')), // UNIQUE violation: only this unit rolls back
      database.writer.run(() => {
        insert('two')()
        throw new Error('decided no')
      }),
      database.writer.run(insert('three')),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect(database.writer.stats.batches - before).toBe(1)
    const keys = database.client.prepare('SELECT key FROM settings WHERE key IN (?, ?, ?) ORDER BY key').all('one', 'two', 'three')
    expect(keys).toEqual([{ key: 'one' }, { key: 'three' }])
  })

  test('a unit that need not commit soon joins the next batch, or commits alone once its wait is over', async () => {
    const before = database.writer.stats.batches
    const late = database.writer.runSoon(insert('soon-a'), 10_000)
    await Bun.sleep(30)
    // Nothing else ran: it waits, uncommitted.
    expect(database.writer.stats.batches).toBe(before)
    await Promise.all([late, database.writer.run(insert('soon-b'))])
    expect(database.writer.stats.batches - before).toBe(1)
    const alone = database.writer.runSoon(insert('soon-c'), 20)
    expect(await alone).toBeDefined()
    expect(database.writer.stats.batches - before).toBe(2)
    const keys = database.client.prepare("SELECT key FROM settings WHERE key LIKE 'soon-%' ORDER BY key").all()
    expect(keys).toEqual([{ key: 'soon-a' }, { key: 'soon-b' }, { key: 'soon-c' }])
  })

  test('a single-write unit needs no SAVEPOINT: its failed statement is undone alone, beside units with one', async () => {
    const outcomes = await Promise.allSettled([
      database.writer.runSingleWrite(insert('s1')),
      database.writer.run(insert('s2')),
      database.writer.runSingleWrite(insert('s1')), // UNIQUE violation: the statement is undone, nothing else
      database.writer.runSingleWrite(() => {
        throw new Error('decided no before writing')
      }),
      database.writer.run(() => {
        insert('s3')()
        throw new Error('decided no')
      }),
      database.writer.runSingleWrite(insert('s4')),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled'])
    const keys = database.client.prepare("SELECT key FROM settings WHERE key LIKE 's_' ORDER BY key").all()
    expect(keys).toEqual([{ key: 's1' }, { key: 's2' }, { key: 's4' }])
  })

  test('nothing is answered before its COMMIT: another connection sees the row once the promise resolves', async () => {
    const other = new Database(join(dir, 'svc.db'), { readonly: true })
    let resolved = false
    const pending = database.writer.run(insert('durable')).then(() => {
      resolved = true
    })
    // Still queued: neither answered nor visible to another connection.
    expect(resolved).toBe(false)
    expect(other.prepare("SELECT count(*) AS n FROM settings WHERE key = 'durable'").get()).toEqual({ n: 0 })
    await pending
    expect(other.prepare("SELECT count(*) AS n FROM settings WHERE key = 'durable'").get()).toEqual({ n: 1 })
    other.close()
  })

  test('every answer comes after COMMIT returned; a failed COMMIT answers no unit with success', async () => {
    // The writer over the same connection, with every statement it runs recorded in order.
    const events: string[] = []
    let failCommit = false
    const client = database.client
    const recorded = {
      exec(sql: string) {
        events.push(sql)
        if (sql === 'COMMIT' && failCommit) throw new Error('disk I/O error')
        client.exec(sql)
      },
      prepare: (sql: string) => client.prepare(sql),
      close: () => client.close(),
    }
    const writer = new Writer(recorded)
    const answered = Promise.all(['a', 'b', 'c'].map((key) => writer.run(insert(key)).then(() => events.push(`answered ${key}`))))
    await answered
    const memory = 'PRAGMA temp_store = MEMORY'
    const fallback = 'PRAGMA temp_store = DEFAULT'
    expect(events).toEqual([memory, 'BEGIN IMMEDIATE', 'COMMIT', fallback, 'answered a', 'answered b', 'answered c'])

    events.length = 0
    failCommit = true
    const outcomes = await Promise.allSettled(['d', 'e'].map((key) => writer.run(insert(key)).then(() => events.push(`answered ${key}`))))
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect(events).toEqual([memory, 'BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK', fallback])
    expect(client.prepare("SELECT count(*) AS n FROM settings WHERE key IN ('d', 'e')").get()).toEqual({ n: 0 })
  })

  test('a unit queued one turn after another joins its batch: a request body read a turn later shares the fsync', async () => {
    const before = database.writer.stats.batches
    const first = database.writer.run(insert('turn-1'))
    const second = new Promise((resolve, reject) => setImmediate(() => database.writer.run(insert('turn-2')).then(resolve, reject)))
    await Promise.all([first, second])
    expect(database.writer.stats.batches - before).toBe(1)
  })

  test('units queued when the connection closes are refused, and the batch throws nothing of its own', async () => {
    const other = openDatabase(bunRuntime, join(dir, 'closing.db'))
    const queued = other.writer.run(() => 'ran')
    other.close()
    await expect(queued).rejects.toThrow()
  })

  test('a unit sees the writes of units queued before it in the same batch', async () => {
    const [, seen] = await Promise.all([
      database.writer.run(insert('first')),
      database.writer.run(() => database.client.prepare("SELECT count(*) AS n FROM settings WHERE key = 'first'").get()),
    ])
    expect(seen).toEqual({ n: 1 })
  })

  test('the database runs in WAL mode with synchronous=FULL and foreign keys on', () => {
    expect(database.client.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(database.client.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 })
    expect(database.client.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
  })
  // bench/README.md, issue 35, fourth session: a unit's sub-journal as a temporary file cost a
  // write per page per unit. A unit that rewrites 100 pages keeps it in memory; a read outside
  // batches keeps the default temporary storage, so its large sorts spill to files.
  test("a unit's savepoint journal stays in memory however many pages it changes; outside batches temporary storage is the default", async () => {
    database.client.exec('CREATE TABLE wide (id INTEGER PRIMARY KEY, v TEXT NOT NULL)')
    const fill = database.client.prepare('INSERT INTO wide (id, v) VALUES (?, ?)')
    await database.writer.run(() => {
      for (let i = 0; i < 100; i++) fill.run(i, 'a'.repeat(3000))
    })
    const temporaryFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith(' (deleted)')
        } catch {
          return false
        }
      }).length
    // Files other tests' connections left open (their folders removed) are counted on both sides.
    const counts = { before: 0, during: -1 }
    await database.writer.run(() => {
      counts.before = temporaryFiles()
      database.client.exec("UPDATE wide SET v = replace(v, 'a', 'b')")
      counts.during = temporaryFiles()
    })
    expect(counts.during).toBe(counts.before)
    expect(database.client.prepare('PRAGMA temp_store').get()).toEqual({ temp_store: 0 })
    // The same rewrite in a transaction of its own (not a batch) spills its journal to a file.
    database.client.exec('BEGIN IMMEDIATE')
    database.client.exec('SAVEPOINT outside')
    database.client.exec("UPDATE wide SET v = replace(v, 'b', 'c')")
    const outside = temporaryFiles()
    database.client.exec('RELEASE outside')
    database.client.exec('COMMIT')
    expect(outside).toBe(counts.before + 1)
  })
})
