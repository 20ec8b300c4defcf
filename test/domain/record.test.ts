import { describe, expect, test } from 'bun:test'
import { hiddenColumns, presentRow } from '../../src/domain/record.ts'
import { iso } from '../../src/domain/time.ts'

describe('presentRow', () => {
  test('snake_case keys, the id under <name>_id, times as ISO 8601, null times null, other values as they are', () => {
    expect(
      presentRow('partner', {
        id: 3,
        programId: 1,
        name: 'Ada',
        createdAt: Date.parse('2026-06-01T12:00:00Z'),
        deletedAt: null,
        rotateBy: Date.parse('2026-07-01T00:00:00Z'),
        commissionRate: 0,
        active: false,
        flags: ['same_ip'],
      }),
    ).toEqual({
      partner_id: 3,
      program_id: 1,
      name: 'Ada',
      created_at: '2026-06-01T12:00:00.000Z',
      deleted_at: null,
      rotate_by: '2026-07-01T00:00:00.000Z',
      commission_rate: 0,
      active: false,
      flags: ['same_ip'],
    })
  })

  test('the chain links and the keyed IP hash are never shown', () => {
    expect([...hiddenColumns].sort()).toEqual([
      'applicantKey',
      'cancelHash',
      'cancelSeq',
      'chainHash',
      'chainSeq',
      'emailKey',
      'lastAppliedAt',
      'leadIpHash',
      'sendId',
    ])
    expect(presentRow('commission', { id: 1, chainSeq: 4, chainHash: 'ab', cancelSeq: 5, cancelHash: 'cd', leadIpHash: 'ef' })).toEqual({
      commission_id: 1,
    })
  })
})

describe('iso', () => {
  const rows: [number | null | undefined, string | null][] = [
    [0, '1970-01-01T00:00:00.000Z'],
    [Date.parse('2026-06-01T12:00:00.123Z'), '2026-06-01T12:00:00.123Z'],
    [null, null],
    [undefined, null],
  ]
  for (const [ms, expected] of rows) test(`${ms} → ${expected}`, () => expect(iso(ms)).toBe(expected))
})
