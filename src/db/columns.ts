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

/**
 * `"column" AS "key", …` for a plain SELECT on the raw client, so that its rows carry schema.ts's
 * keys without Drizzle's row mapping (about 1 µs of the sale's customer lookup, issue 14). An
 * entry is a column, or an SQL expression already written out.
 */
export function selectList(columns: Record<string, { name: string } | string>): string {
  return Object.entries(columns)
    .map(([key, column]) => `${typeof column === 'string' ? column : `"${column.name}"`} AS "${key}"`)
    .join(', ')
}
