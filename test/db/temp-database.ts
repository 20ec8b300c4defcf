import { afterEach, beforeEach } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Database, openDatabase } from '../../src/db/open.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'

/** The time the store tests write at. */
export const NOW = Date.parse('2026-06-01T12:00:00Z')

/** A real database in a temp folder for each test of the file, closed and removed after it: `db()` reads the current one. */
export function tempDatabase(): () => Database {
  let dir: string
  let database: Database
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-db-'))
    database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  })
  afterEach(() => {
    database.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return () => database
}

/** An account (o@shop.test) and its program, made through the stores in one writer unit; `more` adds to it in the same unit. */
export function seedProgram<T>(
  database: Database,
  more: (made: { accountId: number; programId: number; apiKey: string }) => T,
): Promise<{ accountId: number; programId: number; apiKey: string } & T> {
  const { writer, stores } = database
  return writer.run(() => {
    const { accountId, advertiserId } = stores.accounts.createAccount({ email: 'o@shop.test', createdAt: NOW })
    const created = stores.programs.createProgram({
      advertiserId,
      name: 'Shop',
      domain: 'shop.test',
      siteUrl: 'https://shop.test',
      commissionType: 'percent',
      commissionRate: 10,
      createdAt: NOW,
    })
    const made = { accountId, ...created }
    return { ...made, ...more(made) }
  })
}
