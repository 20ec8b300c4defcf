import { getTableColumns } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'

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
