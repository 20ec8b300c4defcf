import { describe, expect, test } from 'bun:test'
import { VisitorCounts } from '../../src/tracking/visitor-counts.ts'

const HOUR = 3_600_000
const T0 = Date.parse('2026-06-01T10:00:00Z')

describe('VisitorCounts', () => {
  test('the first click of an IP on a link in an hour is unique; later ones are not', () => {
    const counts = new VisitorCounts(1024)
    expect(counts.see(1, false, '203.0.113.1', T0).unique).toBe(true)
    expect(counts.see(1, false, '203.0.113.1', T0 + 1000).unique).toBe(false)
    expect(counts.see(2, false, '203.0.113.1', T0 + 2000).unique).toBe(true)
    expect(counts.see(1, true, '203.0.113.1', T0 + 2000).unique).toBe(true)
    expect(counts.see(1, false, '203.0.113.2', T0 + 3000).unique).toBe(true)
    expect(counts.see(1, false, '203.0.113.1', T0 + HOUR).unique).toBe(true)
  })

  test('the 52nd click of an IP on a link within the hour (over 50 before it) is in a burst, and the hour after it counts', () => {
    const counts = new VisitorCounts(1024)
    const seen = Array.from({ length: 52 }, (_, i) => counts.see(7, false, '203.0.113.9', T0 + i * 60_000).burst)
    expect(seen.slice(0, 51).every((b) => !b)).toBe(true)
    expect(seen[51]).toBe(true)
    // At the top of the next hour the previous one still counts whole: the next click is in a burst too.
    expect(counts.see(7, false, '203.0.113.9', T0 + HOUR).burst).toBe(true)
    // Two hours on, nothing of it is left.
    expect(counts.see(7, false, '203.0.113.9', T0 + 3 * HOUR).burst).toBe(false)
  })

  test('an IPv6 visitor is counted by its /64: rotating the rest of the address does not escape a burst', () => {
    const counts = new VisitorCounts(1024)
    const seen = Array.from({ length: 52 }, (_, i) => counts.see(1, false, `2001:db8:7:7::${i.toString(16)}`, T0 + i))
    expect(seen[0]!.unique).toBe(true)
    expect(seen.slice(1).every((s) => !s.unique)).toBe(true)
    expect(seen[51]!.burst).toBe(true)
  })

  test('a flood of distinct IPs neither grows the table nor evicts the IP that bursts', () => {
    const counts = new VisitorCounts(4096)
    const bytes = counts.bytes
    for (let i = 0; i < 60; i++) counts.see(1, false, 'burst', T0 + i)
    for (let i = 0; i < 200_000; i++) counts.see(1, false, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, T0 + 100 + i)
    expect(counts.bytes).toBe(bytes)
    expect(counts.see(1, false, 'burst', T0 + 300_000)).toEqual({ unique: false, burst: true })
  })
})
