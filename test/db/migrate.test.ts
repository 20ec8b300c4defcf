import { describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate, MigrationEditedError } from '../../src/db/migrate.ts'
import { baseline, migrations } from '../../src/db/migrations.gen.ts'
import type { SqliteDatabase } from '../../src/runtime/runtime.ts'

test('a database in use is carried through every later migration, table rebuilds included, with its rows and foreign keys intact', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'))
  const db = new Database(join(dir, 'svc.db'), { create: true, strict: true })
  const client = db as unknown as SqliteDatabase
  try {
    db.exec('PRAGMA foreign_keys = ON')
    migrate(client, migrations.slice(0, 2))
    db.exec(`INSERT INTO accounts (id, email, created_at) VALUES (1, 'a@shop.test', 0);
      INSERT INTO advertisers (id, account_id, created_at) VALUES (1, 1, 0);
      INSERT INTO programs (id, advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (7, 1, 'Old', 'shop.test', 'percent', 10, 0);
      INSERT INTO partners (id, program_id, created_at) VALUES (1, 7, 0);
      INSERT INTO links (id, program_id, partner_id, short_link, created_at) VALUES (1, 7, 1, 'old', 0);
      INSERT INTO clicks (click_id, program_id, link_id, partner_id, created_at) VALUES ('clk_old', 7, 1, 1, 0);`)
    migrate(client)
    expect(db.prepare('SELECT count(*) AS n FROM _migrations').get()).toEqual({ n: migrations.length })
    // The rebuilt programs table kept the row and its mode; clicks still point at it.
    expect(db.prepare('SELECT id, name, livemode FROM programs').all()).toEqual([{ id: 7, name: 'Old', livemode: 1 }])
    expect(db.prepare('SELECT count(*) AS n FROM clicks WHERE program_id = 7').get()).toEqual({ n: 1 })
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    // New programs accept both modes; an email may own several accounts.
    db.exec(
      "INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (1, 'New', 'shop.test', 'fixed', 5, 0)",
    )
    expect(db.prepare("SELECT livemode FROM programs WHERE name = 'New'").get()).toEqual({ livemode: null })
    db.exec("INSERT INTO accounts (email, created_at) VALUES ('a@shop.test', 0)")
    expect(() =>
      db.exec(
        "INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (99, 'x', 'x', 'fixed', 1, 0)",
      ),
    ).toThrow()
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('a new database is given the baseline', () => {
  const schema = (db: Database) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY type, name").all()
  const recorded = (db: Database) => db.prepare('SELECT tag, hash FROM _migrations ORDER BY tag').all()

  test('the same schema, seeds and records as every migration replayed', () => {
    const replayed = new Database(':memory:')
    migrate(replayed as unknown as SqliteDatabase, migrations, null)
    const given = new Database(':memory:')
    migrate(given as unknown as SqliteDatabase)
    expect(schema(given)).toEqual(schema(replayed))
    expect(recorded(given)).toEqual(recorded(replayed))
    expect(given.prepare("SELECT count(*) AS n FROM settings WHERE key = 'click_id_key'").get()).toEqual({ n: 1 })
    expect(baseline.tags).toEqual(migrations.map((m) => m.tag))
  })

  test('a database with any table is migrated step by step, never given the baseline', () => {
    const db = new Database(':memory:')
    db.exec('CREATE TABLE something_of_mine (id INTEGER)')
    migrate(db as unknown as SqliteDatabase, migrations.slice(0, 3))
    expect(recorded(db)).toHaveLength(3)
    migrate(db as unknown as SqliteDatabase)
    expect(recorded(db)).toHaveLength(migrations.length)
  })
})

describe('applied migrations are checked against their recorded SHA-256', () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'))
    const db = new Database(join(dir, 'svc.db'), { create: true, strict: true })
    return {
      dir,
      db,
      client: db as unknown as SqliteDatabase,
      done: () => {
        db.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }

  test('each applied migration records its hash; an edited one refuses with MigrationEditedError naming it', () => {
    const { db, client, done } = fresh()
    try {
      migrate(client)
      const hashes = db.prepare('SELECT hash FROM _migrations').all() as { hash: string }[]
      expect(hashes.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true)
      const edited = migrations.map((m, i) => (i === 1 ? { ...m, sql: `${m.sql}\n-- edited` } : m))
      expect(() => migrate(client, edited)).toThrow(MigrationEditedError)
      expect(() => migrate(client, edited)).toThrow(`migration ${migrations[1].tag} was edited after it was applied`)
      migrate(client) // the files as merged start again
    } finally {
      done()
    }
  })

  test('a database migrated before hashes were kept gets them recorded, and is checked from then on', () => {
    const { db, client, done } = fresh()
    try {
      // The table as it was: no hash column, one migration applied.
      db.exec('CREATE TABLE _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
      for (const statement of migrations[0].sql.split('--> statement-breakpoint')) db.exec(statement)
      db.prepare('INSERT INTO _migrations (tag, applied_at) VALUES (?, 0)').run(migrations[0].tag)
      migrate(client)
      expect(db.prepare('SELECT count(*) AS n FROM _migrations WHERE hash IS NULL').get()).toEqual({ n: 0 })
      expect(() =>
        migrate(
          client,
          migrations.map((m) => ({ ...m, sql: `${m.sql} ` })),
        ),
      ).toThrow(MigrationEditedError)
    } finally {
      done()
    }
  })

  test('the server refuses to start over a database whose applied migration was edited: configuration error, exit 2', () => {
    const { db, dir, done } = fresh()
    try {
      migrate(db as unknown as SqliteDatabase)
      // What an edited file looks like from the database's side: the recorded hash no longer matches.
      db.exec(`UPDATE _migrations SET hash = '${'0'.repeat(64)}' WHERE tag = '${migrations[0].tag}'`)
      const run = Bun.spawnSync([process.execPath, 'src/main.ts'], {
        env: { ...process.env, DATABASE_PATH: join(dir, 'svc.db'), PORT: '0', HOST: '127.0.0.1' },
        stderr: 'pipe',
        timeout: 20_000,
      })
      expect(run.exitCode).toBe(2)
      expect(run.stderr.toString()).toContain(
        `svc: configuration error: DATABASE_PATH "${join(dir, 'svc.db')}": migration ${migrations[0].tag} was edited after it was applied`,
      )
    } finally {
      done()
    }
  })
})
