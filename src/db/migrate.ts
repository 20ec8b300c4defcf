import { createHash } from 'node:crypto'
import type { SqliteDatabase } from '../runtime/runtime.ts'
import { baseline as embeddedBaseline, migrations } from './migrations.gen.ts'

/** A migration already applied to this database differs from the embedded one: the server must not start. */
export class MigrationEditedError extends Error {}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * Applies the embedded drizzle-kit migrations not yet recorded in `_migrations`, all in one
 * transaction, so that a crash mid-migration leaves the previous schema intact. Each applied
 * migration's SHA-256 is recorded; a migration file edited after it was applied (its schema
 * already in the database, its new text never to run) throws MigrationEditedError before
 * anything else happens. Rows recorded before hashes were kept get the current file's hash.
 *
 * drizzle-kit rebuilds a table to change a column (create, copy, drop, rename). SQLite ignores
 * `PRAGMA foreign_keys` inside a transaction, and with the keys on, dropping a referenced table
 * fails; so the keys are off while migrating (SQLite's documented procedure for schema
 * changes) and `foreign_key_check` must find nothing before the COMMIT.
 *
 * A new database (no table at all) is given `baseline` instead, when it stands for exactly `all`:
 * the schema the migrations make, in one transaction, each migration recorded as applied. Replaying
 * every migration cost a fresh start about 30 ms (issue 36); test/db/migrate.test.ts checks that both
 * ways make the same schema.
 */
export function migrate(
  client: SqliteDatabase,
  all: { tag: string; sql: string }[] = migrations,
  baseline: { tags: string[]; statements: string[] } | null = embeddedBaseline,
): void {
  const empty = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get() === null
  if (empty && baseline && baseline.tags.length === all.length && baseline.tags.every((tag, i) => all[i]!.tag === tag)) {
    giveBaseline(client, all, baseline.statements)
    return
  }
  client.exec('CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL, hash TEXT)')
  const columns = client.prepare('PRAGMA table_info(_migrations)').all() as { name: string }[]
  if (!columns.some((c) => c.name === 'hash')) client.exec('ALTER TABLE _migrations ADD COLUMN hash TEXT')
  const applied = new Map(
    (client.prepare('SELECT tag, hash FROM _migrations').all() as { tag: string; hash: string | null }[]).map((r) => [r.tag, r.hash]),
  )
  for (const { tag, sql } of all) {
    if (!applied.has(tag)) continue
    const recorded = applied.get(tag) ?? null
    const hash = sha256(sql)
    if (recorded === null) client.prepare('UPDATE _migrations SET hash = ? WHERE tag = ?').run(hash, tag)
    else if (recorded !== hash) {
      throw new MigrationEditedError(
        `migration ${tag} was edited after it was applied to this database (recorded sha256 ${recorded.slice(0, 12)}…, file ${hash.slice(0, 12)}…): restore it as merged and put the change in a new migration`,
      )
    }
  }
  const pending = all.filter(({ tag }) => !applied.has(tag))
  if (pending.length === 0) return
  client.exec('PRAGMA foreign_keys = OFF')
  try {
    // One transaction for every pending migration (one fsync, not one each: a fresh database
    // starts in a few milliseconds, issue 36); a crash or a failure leaves the schema as before.
    client.exec('BEGIN IMMEDIATE')
    try {
      const record = client.prepare('INSERT INTO _migrations (tag, applied_at, hash) VALUES (?, ?, ?)')
      for (const { tag, sql } of pending) {
        for (const statement of sql.split('--> statement-breakpoint')) {
          // The migration's own foreign_keys PRAGMAs would do nothing inside the transaction.
          if (statement.trim() && !/^\s*PRAGMA foreign_keys\s*=/i.test(statement)) client.exec(statement)
        }
        const broken = client.prepare('PRAGMA foreign_key_check').all()
        if (broken.length > 0) throw new Error(`migration ${tag} leaves ${broken.length} rows breaking a foreign key`)
        record.run(tag, Date.now(), sha256(sql))
      }
      client.exec('COMMIT')
    } catch (error) {
      client.exec('ROLLBACK')
      throw error
    }
  } finally {
    client.exec('PRAGMA foreign_keys = ON')
  }
}

/** A new database's whole schema in one transaction, every migration recorded as applied. */
function giveBaseline(client: SqliteDatabase, all: { tag: string; sql: string }[], statements: string[]): void {
  client.exec('BEGIN IMMEDIATE')
  try {
    client.exec('CREATE TABLE _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL, hash TEXT)')
    for (const statement of statements) client.exec(statement)
    const record = client.prepare('INSERT INTO _migrations (tag, applied_at, hash) VALUES (?, ?, ?)')
    const now = Date.now()
    for (const { tag, sql } of all) record.run(tag, now, sha256(sql))
    client.exec('COMMIT')
  } catch (error) {
    client.exec('ROLLBACK')
    throw error
  }
}
