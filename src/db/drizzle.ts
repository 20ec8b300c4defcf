import { entityKind } from 'drizzle-orm'
import { SQLiteBunSession } from 'drizzle-orm/bun-sqlite/session'
import { createTableRelationsHelpers, extractTablesRelationalConfig } from 'drizzle-orm/relations'
import { BaseSQLiteDatabase, SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import type { SqliteDatabase } from '../runtime/runtime.ts'
import * as schema from './schema.ts'

class SvcDatabase extends BaseSQLiteDatabase<'sync', void, typeof schema> {
  static readonly [entityKind] = 'SvcDatabase'
}

/**
 * Drizzle's synchronous bun-sqlite session over any client shaped like bun:sqlite's Database
 * (bun:sqlite itself, or the node:sqlite shim of the Deno adapter). drizzle-orm/bun-sqlite's
 * own entry imports bun:sqlite, which would tie the app to Bun, so it is assembled here.
 */
export function drizzleOver(client: SqliteDatabase) {
  const dialect = new SQLiteSyncDialect()
  const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers)
  const relational = { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap }
  const session = new SQLiteBunSession(client as never, dialect, relational as never, {})
  return new SvcDatabase('sync', dialect, session as never, relational as never)
}

export type Db = ReturnType<typeof drizzleOver>
