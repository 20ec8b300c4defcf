import { describe, expect, test } from 'bun:test'
import { hashKey } from '../../src/domain/key-hash.ts'

describe('hashKey', () => {
  // Pinned values: the tables are per process, so a change of hash is allowed, but it must be made on purpose.
  const rows: [string, number, number, number, number][] = [
    ['', 0, 0, 2872998923, 1],
    ['a', 0, 0, 444641715, 643525386],
    ['click:ip:198.51.100.7', 1, 2, 3686297819, 2593407765],
    ['click:ip:198.51.100.8', 1, 2, 2377211568, 4133911938],
    ['click:ip:198.51.100.7', 3, 2, 4260229832, 2593407765],
    ['click:ip:198.51.100.7', 1, 4, 3686297819, 660105787],
    ['é😀', 0x7fffffff, -1, 3112317498, 1870164022],
  ]
  for (const [key, seed0, seed1, slot, fingerprint] of rows) {
    test(`${JSON.stringify(key)} seeded ${seed0}, ${seed1}`, () => {
      const out = new Uint32Array(2)
      hashKey(key, seed0, seed1, out)
      expect([out[0], out[1]]).toEqual([slot, fingerprint])
    })
  }

  test('similar keys spread over a table: 4,096 addresses fill 1,024 slots at most 14 deep', () => {
    const out = new Uint32Array(2)
    const load = new Uint16Array(1024)
    for (let i = 0; i < 4096; i++) {
      hashKey(`click:ip:10.0.${i >> 8}.${i & 255}`, 17, 29, out)
      load[out[0]! & 1023]!++
    }
    expect(Math.max(...load)).toBeLessThanOrEqual(14)
    expect(load.filter((n) => n === 0).length).toBeLessThan(60)
  })
})
