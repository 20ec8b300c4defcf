// The fixed-window counter behind the pages' hourly limits (sign-in links, join, setup codes).
import { describe, expect, test } from 'bun:test'
import { WindowLimit } from '../../../src/http/pipeline/window-limit.ts'

const HOUR = 3_600_000

describe('WindowLimit', () => {
  test('allows `limit` events a key in a window, then names the whole seconds left, at least 1', () => {
    const limit = new WindowLimit(3, HOUR)
    for (let i = 0; i < 3; i++) {
      expect(limit.retryAfter('a', 1_000 + i)).toBeNull()
      limit.hit('a', 1_000 + i)
    }
    expect(limit.retryAfter('a', 1_000)).toBe(3600)
    expect(limit.retryAfter('a', 1_000 + HOUR - 1_001)).toBe(2)
    expect(limit.retryAfter('a', 1_000 + HOUR - 1)).toBe(1)
    expect(limit.retryAfter('b', 1_000)).toBeNull()
  })

  test('a new window starts when the last one has ended, counting from its first event', () => {
    const limit = new WindowLimit(1, HOUR)
    limit.hit('a', 0)
    expect(limit.retryAfter('a', HOUR - 1)).toBe(1)
    expect(limit.retryAfter('a', HOUR)).toBeNull()
    limit.hit('a', HOUR + 5)
    expect(limit.retryAfter('a', HOUR + 6)).toBe(3600)
    expect(limit.retryAfter('a', 2 * HOUR + 5)).toBeNull()
    // An event exactly a window after the first starts the next window.
    limit.hit('a', 2 * HOUR + 5)
    expect(limit.retryAfter('a', 2 * HOUR + 5)).toBe(3600)
  })

  test('a full table makes room before it adds: the oldest live key starts again', () => {
    const limit = new WindowLimit(1, HOUR, 2)
    limit.hit('a', 0)
    limit.hit('b', 1)
    limit.hit('c', 2)
    expect([limit.retryAfter('a', 3), limit.retryAfter('b', 3), limit.retryAfter('c', 3)]).toEqual([null, 3600, 3600])
  })

  test('past maxKeys, expired windows go first, then the oldest; a kept key keeps its count', () => {
    const limit = new WindowLimit(1, HOUR, 3)
    limit.hit('old', 0)
    limit.hit('b', HOUR / 2)
    limit.hit('c', HOUR / 2)
    // 'old' has expired: it goes, and b and c stay limited.
    limit.hit('d', HOUR)
    expect([limit.retryAfter('b', HOUR), limit.retryAfter('c', HOUR), limit.retryAfter('d', HOUR)]).toEqual([1800, 1800, 3600])
    // None has expired: the oldest (b) goes to make room for e.
    limit.hit('e', HOUR + 1)
    expect(limit.retryAfter('b', HOUR + 1)).toBeNull()
    expect([limit.retryAfter('c', HOUR + 1), limit.retryAfter('d', HOUR + 1), limit.retryAfter('e', HOUR + 1)]).toEqual([1800, 3600, 3600])
  })
})
