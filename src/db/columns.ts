import { getTableColumns, getTableName } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { SqliteDatabase } from '../runtime/runtime.ts'

export type Table = SQLiteTable

/** What the OpenAPI document reads of a column to describe a stored row (src/http/openapi.ts). */
export interface ColumnInfo {
  dataType: string
  columnType: string
  notNull: boolean
  enumValues?: string[]
}

/** A table's columns by their schema.ts names (camelCase), in declaration order. */
export function columnsOf(table: Table): [string, ColumnInfo][] {
  return Object.entries(getTableColumns(table)) as unknown as [string, ColumnInfo][]
}

/**
 * `INSERT INTO table (columns) VALUES (?, …)`, optionally `RETURNING "id"`, prepared once on the
 * raw client: the hot writes bind their values in this order themselves, because Drizzle's
 * placeholder filling and value mapping cost a few µs per row (issue 14: the sale insert 9-10 µs
 * through Drizzle, 6 µs plain). Names come from schema.ts, so a renamed column fails here.
 */
export function plainInsert(client: SqliteDatabase, table: Table, columns: { name: string }[], returningId = false) {
  const names = columns.map((column) => `"${column.name}"`).join(', ')
  const values = columns.map(() => '?').join(', ')
  return client.prepare(`INSERT INTO "${getTableName(table)}" (${names}) VALUES (${values})${returningId ? ' RETURNING "id"' : ''}`)
}
