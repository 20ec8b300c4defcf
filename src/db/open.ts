import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Runtime, SqliteDatabase } from '../runtime/runtime.ts'
import { keyStoredEmails } from './email-keys.ts'
import { migrate } from './migrate.ts'
import { drizzleOver, type Db } from './drizzle.ts'
import { createStores, type Stores } from './stores.ts'
import { Writer } from './writer.ts'

export type { Db }

/** What every store is built over: the raw client (savepoints), Drizzle over it, and the group-commit writer. */
export interface Connection {
  client: SqliteDatabase
  db: Db
  writer: Writer
}

/** An open, migrated database with its stores (src/db/README.md), built once here. */
export interface Database extends Connection {
  stores: Stores
  close(): void
}

export interface OpenOptions {
  /**
   * Keep in-memory copies of links, keys and origins (src/db/catalog.ts); default true. Off only
   * when another process writes the same file (the Deno test runs, test/deno-server.ts).
   */
  catalog?: boolean
}

/**
 * Creates the database's folder 0700 (when it is missing) and its file 0600, and narrows an
 * existing file, -wal and -shm to 0600: they hold SVC_SECRET's generated value and the webhook
 * secrets (docs/decisions.md, Hostile input). SQLite gives the -wal and -shm files it creates the
 * database file's permissions, so creating the file first is enough for them.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600)
}

/**
 * Opens (creating its folder and file if missing) and migrates the SQLite database, then builds
 * its stores. The place for the connection's PRAGMAs: WAL so that Litestream can replicate and
 * readers never block, synchronous=FULL so that an acknowledged COMMIT survives power loss,
 * busy_timeout for Litestream's checkpoints, foreign keys on (the writer sets temp_store around
 * its batches, src/db/writer.ts). Throws MigrationEditedError (src/db/migrate.ts) when an applied
 * migration was edited.
 */
export function openDatabase(runtime: Runtime, path: string, options: OpenOptions = {}): Database {
  if (path !== ':memory:') createPrivately(path)
  const client = runtime.openSqlite(path)
  try {
    client.exec('PRAGMA journal_mode = WAL')
    client.exec('PRAGMA synchronous = FULL')
    client.exec('PRAGMA busy_timeout = 5000')
    client.exec('PRAGMA foreign_keys = ON')
    // Litestream takes over checkpointing of the WAL when it runs; SQLite's own stays as a fallback.
    client.exec('PRAGMA wal_autocheckpoint = 1000')
    migrate(client)
  } catch (error) {
    client.close()
    throw error
  }
  const connection: Connection = { client, db: drizzleOver(client), writer: new Writer(client) }
  const stores = createStores(connection, options)
  // Migration 0016's second half: entries booked before the chain existed are linked, in one
  // transaction, before anything else writes (docs/ledger.md). A no-op on every later start.
  // So is 0019's: the keys of emails stored before it.
  client.exec('BEGIN IMMEDIATE')
  try {
    stores.chain.backfill()
    keyStoredEmails(client)
    client.exec('COMMIT')
  } catch (error) {
    client.exec('ROLLBACK')
    client.close()
    throw error
  }
  return { ...connection, stores, close: () => client.close() }
}
