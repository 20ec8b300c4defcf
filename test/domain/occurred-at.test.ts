import { describe, expect, test } from 'bun:test'
import { occurredAtInBounds, parseOccurredAt } from '../../src/domain/occurred-at.ts'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const MIN = 60_000
const DAY = 86_400_000

describe('parseOccurredAt accepts ISO 8601 with an offset', () => {
  const good: [string, string][] = [
    ['2026-05-31T10:00:00Z', '2026-05-31T10:00:00.000Z'],
    ['2026-05-31T10:00:00.123Z', '2026-05-31T10:00:00.123Z'],
    ['2026-05-31T17:00:00+07:00', '2026-05-31T10:00:00.000Z'],
    ['2026-05-31T05:30:00-0430', '2026-05-31T10:00:00.000Z'],
    ['2026-05-31T10:00Z', '2026-05-31T10:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2026-05-31t10:00:00z', '2026-05-31T10:00:00.000Z'],
  ]
  for (const [text, iso] of good) {
    test(`${text} is ${iso}`, () => expect(new Date(parseOccurredAt(text)!).toISOString()).toBe(iso))
  }
})

describe('parseOccurredAt refuses what is not a real time with an offset', () => {
  const bad = [
    '2026-05-31T10:00:00',
    '2026-05-31',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-05-31T24:00:00Z',
    '2026-05-31T10:60:00Z',
    '2026-05-31T10:00:00+19:00',
    'yesterday',
    '1717236000',
    '2026-05-31 10:00:00Z',
    '',
  ]
  for (const text of bad) test(`"${text}" is refused`, () => expect(parseOccurredAt(text)).toBeNull())
})

describe('occurredAtInBounds: at most 30 days old, at most 5 minutes ahead', () => {
  const rows: [number, boolean, string][] = [
    [NOW, true, 'now'],
    [NOW - 30 * DAY, true, 'exactly 30 days old'],
    [NOW - 30 * DAY - 1, false, 'a millisecond past 30 days'],
    [NOW + 5 * MIN, true, 'exactly 5 minutes ahead'],
    [NOW + 5 * MIN + 1, false, 'a millisecond past 5 minutes ahead'],
  ]
  for (const [at, expected, why] of rows) test(why, () => expect(occurredAtInBounds(at, NOW)).toBe(expected))
})
