import { Buffer } from 'node:buffer'
import { createCipheriv, createDecipheriv, getRandomValues } from 'node:crypto'

/**
 * Click ids (docs/decisions.md: unguessable, at least 96 random bits) that carry the row of the
 * click that issued them, so that a click_id is found by the table's own key and a click writes no
 * index entry (issue 14: the click_id index was a third of the pages each batch of clicks wrote).
 *
 * `clk_` then 24 URL-safe characters: 18 bytes, of which the first 16 are one AES-128 block
 * sealing the row id (6 bytes) with 10 random bytes, and the last 2 are random. The random bits
 * are 96; the row id is readable only with the database's own key (settings `click_id_key`,
 * written by migration 0012), so an id tells nobody how many clicks came before it. A forged id
 * opens to some row id whose stored click_id is not the forgery: the store compares the whole id.
 */
export const CLICK_ID_LENGTH = 28
const PREFIX = 'clk_'
const SEALED = 16
const ROW_BYTES = 6
/** Row ids above this do not fit the sealed block (2^48: far beyond any click table). */
export const MAX_CLICK_ROW = 2 ** (8 * ROW_BYTES) - 1
const RANDOM_BYTES = SEALED - ROW_BYTES + 2
const BODY = /^clk_[A-Za-z0-9_-]{24}$/

export class ClickIds {
  // ECB on one block is AES itself; the objects are kept, since ECB carries no state between blocks.
  private readonly cipher
  private readonly decipher
  private readonly block = Buffer.alloc(SEALED)
  private readonly out = Buffer.alloc(SEALED + 2)
  // Random bytes from a pool filled by the CSPRNG 256 ids at a time, each byte used once (issue 14:
  // a CSPRNG call per click cost 0.6 µs, the pool's slice 0.06 µs).
  private readonly pool = Buffer.alloc(RANDOM_BYTES * 256)
  private poolAt = this.pool.length

  /** `keyHex`: the 16-byte AES key as 32 hex characters. */
  constructor(keyHex: string) {
    const key = Buffer.from(keyHex, 'hex')
    if (key.length !== 16) throw new Error('click_id_key must be 16 bytes as 32 hex characters')
    this.cipher = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false)
    this.decipher = createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false)
  }

  /** A new id for the click stored at `row` (1 to MAX_CLICK_ROW). */
  issue(row: number): string {
    if (!Number.isSafeInteger(row) || row < 1 || row > MAX_CLICK_ROW) throw new RangeError(`click row ${row} out of range`)
    if (this.poolAt === this.pool.length) {
      getRandomValues(this.pool)
      this.poolAt = 0
    }
    const { block, out, pool } = this
    block.writeUIntBE(row, 0, ROW_BYTES)
    pool.copy(block, ROW_BYTES, this.poolAt, this.poolAt + SEALED - ROW_BYTES)
    this.cipher.update(block).copy(out, 0)
    pool.copy(out, SEALED, this.poolAt + SEALED - ROW_BYTES, this.poolAt + RANDOM_BYTES)
    this.poolAt += RANDOM_BYTES
    return PREFIX + out.toString('base64url')
  }

  /**
   * The row an id of today's shape names, or null for any other text (an id issued before
   * migration 0012, or junk). The row may hold another id: only the stored id's equality counts.
   */
  rowOf(clickId: string): number | null {
    if (clickId.length !== CLICK_ID_LENGTH || !BODY.test(clickId)) return null
    const sealed = Buffer.from(clickId.slice(PREFIX.length), 'base64url').subarray(0, SEALED)
    const row = this.decipher.update(sealed).readUIntBE(0, ROW_BYTES)
    return row === 0 ? null : row
  }
}
