// src/domain/click-id.ts: click ids seal their row with the database's key, keep 96 random bits,
// and open only when they have today's shape.
import { describe, expect, test } from 'bun:test'
import { CLICK_ID_LENGTH, ClickIds, MAX_CLICK_ROW } from '../../src/domain/click-id.ts'

const KEY = '000102030405060708090a0b0c0d0e0f'
const ids = new ClickIds(KEY)

describe('ClickIds', () => {
  test('an id is clk_ and 24 URL-safe characters, and opens to its row', () => {
    for (const row of [1, 2, 255, 256, 65_536, 2 ** 32, 2 ** 40 + 7, MAX_CLICK_ROW]) {
      const id = ids.issue(row)
      expect(id).toMatch(/^clk_[A-Za-z0-9_-]{24}$/)
      expect(id.length).toBe(CLICK_ID_LENGTH)
      expect(ids.rowOf(id)).toBe(row)
    }
  })

  test('ids of one row differ in their 96 random bits', () => {
    const issued = new Set(Array.from({ length: 10_000 }, () => ids.issue(42)))
    expect(issued.size).toBe(10_000)
    for (const id of issued) expect(ids.rowOf(id)).toBe(42)
  })

  test('consecutive rows give unrelated ids: the row is readable with the key only', () => {
    const heads = new Set(Array.from({ length: 1_000 }, (_, i) => ids.issue(i + 1).slice(4, 8)))
    // Four base-64 characters are 2^24 values: a thousand sealed rows all but never share one.
    expect(heads.size).toBeGreaterThan(990)
    const other = new ClickIds('f0e0d0c0b0a090807060504030201000')
    const id = ids.issue(12_345)
    expect(other.rowOf(id)).not.toBe(12_345)
  })

  test('any other text opens to no row, junk included', () => {
    const junk = [
      '',
      'clk_',
      'clk_made_up_by_someone',
      `clk_${'A'.repeat(23)}`, // an id of the time-prefixed shape (27 characters)
      `clk_${'A'.repeat(22)}`, // an id of the first, random shape (26 characters)
      `clk_${'A'.repeat(23)}!`,
      `clk_${'A'.repeat(23)}=`,
      `xyz_${'A'.repeat(24)}`,
      `clk_${'A'.repeat(25)}`,
      `clk_${'é'.repeat(24)}`,
      'x'.repeat(100_000),
    ]
    for (const text of junk) expect(ids.rowOf(text)).toBeNull()
  })

  test('a row outside 1 to 2^48 - 1, or a key that is not 16 bytes, is refused', () => {
    for (const row of [0, -1, 1.5, MAX_CLICK_ROW + 1, Number.NaN]) expect(() => ids.issue(row)).toThrow(RangeError)
    for (const key of ['', '00', `${KEY}00`, 'zz'.repeat(16)]) expect(() => new ClickIds(key)).toThrow()
  })
})
