import type { SqliteDatabase } from '../runtime/runtime'
import { migrations } from './migrations.gen'

/**
 * Applies the embedded drizzle-kit migrations not yet recorded in `_migrations`, each in its
 * own transaction, so that a crash mid-migration leaves the previous schema intact.
 *
 * drizzle-kit rebuilds a table to change a column (create, copy, drop, rename). SQLite ignores
 * `PRAGMA foreign_keys` inside a transaction, and with the keys on, dropping a referenced table
 * fails; so the keys are off while migrating (SQLite's documented procedure for schema
 * changes) and `foreign_key_check` must find nothing before each COMMIT.
 */
export function migrate(client: SqliteDatabase, all: { tag: string; sql: string }[] = migrations): void {
  client.exec('CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const applied = new Set((client.prepare('SELECT tag FROM _migrations').all() as { tag: string }[]).map((r) => r.tag))
  const pending = all.filter(({ tag }) => !applied.has(tag))
  if (pending.length === 0) return
  client.exec('PRAGMA foreign_keys = OFF')
  try {
    for (const { tag, sql } of pending) {
      client.exec('BEGIN IMMEDIATE')
      try {
        for (const statement of sql.split('--> statement-breakpoint')) {
          // The migration's own foreign_keys PRAGMAs would do nothing inside the transaction.
          if (statement.trim() && !/^\s*PRAGMA foreign_keys\s*=/i.test(statement)) client.exec(statement)
        }
        const broken = client.prepare('PRAGMA foreign_key_check').all()
        if (broken.length > 0) throw new Error(`migration ${tag} leaves ${broken.length} rows breaking a foreign key`)
        client.prepare('INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)').run(tag, Date.now())
        client.exec('COMMIT')
      } catch (error) {
        client.exec('ROLLBACK')
        throw error
      }
    }
  } finally {
    client.exec('PRAGMA foreign_keys = ON')
  }
}
