import type { SqliteDatabase } from '../runtime/runtime'
import { migrations } from './migrations.gen'

/**
 * Applies the embedded drizzle-kit migrations not yet recorded in `_migrations`, each in its
 * own transaction, so that a crash mid-migration leaves the previous schema intact.
 */
export function migrate(client: SqliteDatabase): void {
  client.exec('CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const applied = new Set((client.prepare('SELECT tag FROM _migrations').all() as { tag: string }[]).map((r) => r.tag))
  for (const { tag, sql } of migrations) {
    if (applied.has(tag)) continue
    client.exec('BEGIN IMMEDIATE')
    try {
      for (const statement of sql.split('--> statement-breakpoint')) {
        if (statement.trim()) client.exec(statement)
      }
      client.prepare('INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)').run(tag, Date.now())
      client.exec('COMMIT')
    } catch (error) {
      client.exec('ROLLBACK')
      throw error
    }
  }
}
