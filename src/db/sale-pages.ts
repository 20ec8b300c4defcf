import type { SqliteDatabase, SqliteStatement } from '../runtime/runtime.ts'

/**
 * Sale ids `id >> SALE_BLOCK_BITS` form a block of 4,096: the sale_block trigger of migration
 * 0011 writes the same shift, and test/db/sale-pages.test.ts checks that the two agree.
 */
export const SALE_BLOCK_BITS = 12
const BLOCK_SIZE = 2 ** SALE_BLOCK_BITS

/** Rows of one program with `low <= id < high`, newest first, at most `limit`. */
export type BlockReader<T> = (low: number, high: number, limit: number) => T[]

/**
 * A program's sales page by page without an index on (program_id, id) (issue 14: with many
 * programs, that index made each sale write a random leaf at COMMIT). sale_blocks says which
 * blocks of ids hold some of a program's sales; a page looks the program's blocks up from the
 * cursor's down and reads each one it has by its id range, until the page is full. Its cost is
 * bounded whatever the program's share of the sales: one lookup (about a microsecond) per block
 * below the cursor, about 2,500 for ten million sales, and one range read of at most 4,096 rows
 * per block that holds some of the program's sales.
 */
export class SalePages {
  private readonly newest: SqliteStatement
  private readonly holds: SqliteStatement

  constructor(client: SqliteDatabase) {
    this.newest = client.prepare('SELECT max(id) AS id FROM sales')
    this.holds = client.prepare('SELECT 1 AS held FROM sale_blocks WHERE block = ? AND program_id = ?')
  }

  /** Up to `limit` of the program's sales with ids below `cursor` (all when null), newest first. */
  page<T>(programId: number, cursor: number | null, limit: number, read: BlockReader<T>): T[] {
    const newest = (this.newest.get() as { id: number | null } | null)?.id ?? null
    if (newest === null || limit < 1) return []
    // Ids below `below` only: the cursor's, or past the newest sale.
    const below = cursor === null ? newest + 1 : Math.min(cursor, newest + 1)
    const rows: T[] = []
    for (let block = Math.floor((below - 1) / BLOCK_SIZE); block >= 0 && rows.length < limit; block--) {
      if (this.holds.get(block, programId) === null) continue
      const low = block * BLOCK_SIZE
      const high = Math.min(below, low + BLOCK_SIZE)
      for (const row of read(low, high, limit - rows.length)) rows.push(row)
    }
    return rows
  }
}
