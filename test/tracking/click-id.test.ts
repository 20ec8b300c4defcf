import { describe, expect, test } from 'bun:test'
import { newClickId } from '../../src/tracking/click.ts'

describe('newClickId', () => {
  test('sorts as its time does, across every base-62 digit boundary', () => {
    const times = [0, 61, 62, 3_843, 3_844, 1_795_000_000_000, 1_795_000_000_061, 1_795_000_000_062, 3_521_614_606_207]
    const ids = times.map((t) => newClickId(t))
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids) expect(id).toMatch(/^clk_[0-9A-Za-z]{7}[A-Za-z0-9_-]{16}$/)
  })

  test('ids of the same millisecond differ in their 96 random bits', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newClickId(1_795_000_000_000)))
    expect(ids.size).toBe(10_000)
  })
})
