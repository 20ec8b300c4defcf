import { describe, expect, test } from 'bun:test'
import { decideChain, sessionExpired } from '../../src/domain/cli-session.ts'

const MIN = 60_000
const HOUR = 60 * MIN

describe('sessionExpired: a login session lives 5 minutes', () => {
  const rows: [number, boolean][] = [
    [0, false],
    [5 * MIN - 1, false],
    [5 * MIN, false],
    [5 * MIN + 1, true],
    [HOUR, true],
  ]
  for (const [age, expired] of rows)
    test(`age ${age} ms: ${expired ? 'expired' : 'alive'}`, () => expect(sessionExpired(1000, 1000 + age)).toBe(expired))
})

describe('decideChain: 10 chains per program per hour', () => {
  const now = 10 * HOUR
  const rows: [string, number[], unknown][] = [
    ['no run yet', [], { ok: true, remaining: 9 }],
    ['nine runs', Array(9).fill(now), { ok: true, remaining: 0 }],
    ['ten runs just now: one hour to wait', Array(10).fill(now), { ok: false, retryAfterSeconds: 3600 }],
    ['ten runs, the oldest 50 minutes ago', [now - 50 * MIN, ...Array(9).fill(now)], { ok: false, retryAfterSeconds: 600 }],
    ['runs older than an hour do not count', [...Array(10).fill(now - HOUR), now], { ok: true, remaining: 8 }],
    ['a wait under a second is rounded up to one', [now - HOUR + 1, ...Array(9).fill(now)], { ok: false, retryAfterSeconds: 1 }],
    [
      'eleven runs: the wait is for the run that frees a place',
      [now - 55 * MIN, now - 40 * MIN, ...Array(9).fill(now)],
      { ok: false, retryAfterSeconds: 1200 },
    ],
  ]
  for (const [name, runs, expected] of rows) test(name, () => expect(decideChain(runs, now)).toEqual(expected as never))
})
