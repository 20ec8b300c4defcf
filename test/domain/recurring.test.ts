import { describe, expect, test } from 'bun:test'
import { recurringLastDay, withinRecurring } from '../../src/domain/commission.ts'

const at = (iso: string) => Date.parse(iso)
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000

describe('recurring_months: a recurring commission pays on sales up to the same day N months after the first sale', () => {
  const cases: [string, number, string][] = [
    ['2026-01-15T10:00:00Z', 1, '2026-02-15'],
    ['2026-01-31T10:00:00Z', 1, '2026-02-28'],
    ['2028-01-31T10:00:00Z', 1, '2028-02-29'],
    ['2026-01-31T23:59:00Z', 2, '2026-03-31'],
    ['2026-03-31T00:00:00Z', 1, '2026-04-30'],
    ['2026-11-30T12:00:00Z', 3, '2027-02-28'],
    ['2026-05-10T12:00:00Z', 12, '2027-05-10'],
  ]
  for (const [first, months, last] of cases) {
    test(`first sale ${first}, ${months} month(s): the last paying day is ${last}`, () => {
      expect(recurringLastDay(at(first), months)).toBe(day(last))
    })
  }

  const sales: [string, string, number | null, boolean][] = [
    ['2026-01-31T10:00:00Z', '2026-02-28T23:59:59Z', 1, true],
    ['2026-01-31T10:00:00Z', '2026-03-01T00:00:00Z', 1, false],
    ['2028-01-31T10:00:00Z', '2028-02-29T08:00:00Z', 1, true],
    ['2028-01-31T10:00:00Z', '2028-03-01T08:00:00Z', 1, false],
    ['2026-01-31T10:00:00Z', '2030-01-01T00:00:00Z', null, true],
  ]
  for (const [first, sale, months, pays] of sales) {
    test(`first sale ${first}, a sale at ${sale}, ${months ?? 'no limit'}: ${pays ? 'pays' : 'pays nothing'}`, () => {
      expect(withinRecurring(at(first), at(sale), months)).toBe(pays)
    })
  }
})
