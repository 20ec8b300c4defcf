import { expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate'
import { migrations } from '../../src/db/migrations.gen'
import type { SqliteDatabase } from '../../src/runtime/runtime'

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
    db.exec("INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (1, 'New', 'shop.test', 'fixed', 5, 0)")
    expect(db.prepare("SELECT livemode FROM programs WHERE name = 'New'").get()).toEqual({ livemode: null })
    db.exec("INSERT INTO accounts (email, created_at) VALUES ('a@shop.test', 0)")
    expect(() => db.exec('INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (99, \'x\', \'x\', \'fixed\', 1, 0)')).toThrow()
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
