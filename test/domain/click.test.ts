import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { seeded } from '../property.ts'
import { affOf, decideLink } from '../../src/domain/click.ts'

describe('affOf', () => {
  const rows: [string, unknown][] = [
    ['https://shop.test/?aff=alice', { ok: true, aff: 'alice', search: '?aff=alice' }],
    ['http://shop.test/p?x=1&aff=bob#top', { ok: true, aff: 'bob', search: '?x=1&aff=bob' }],
    ['shop.test/?aff=alice', { ok: false, reason: 'invalid_url' }],
    ['not a url', { ok: false, reason: 'invalid_url' }],
    ['ftp://shop.test/?aff=alice', { ok: false, reason: 'invalid_url' }],
    ['https://shop.test/?ref=alice', { ok: false, reason: 'no_aff' }],
    ['https://shop.test/?aff=', { ok: false, reason: 'no_aff' }],
  ]
  for (const [url, expected] of rows) test(url, () => expect(affOf(url)).toEqual(expected as never))

  test('the aff found is the one URLSearchParams finds, whatever the query', () => {
    // Queries made of the characters that change a split: separators, escapes, spaces, repeats of aff.
    const piece = fc.constantFrom('aff', 'af', 'f', '=', '&', '%61', '%', '+', ' ', 'x', '%3D', '%26', '#', '?', '&aff=', 'aff=')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const url = `https://shop.test/p?${pieces.join('')}`
        const expected = new URL(url).searchParams.get('aff')?.trim()
        expect(affOf(url)).toEqual(expected ? { ok: true, aff: expected, search: new URL(url).search } : { ok: false, reason: 'no_aff' })
      }),
      seeded({ numRuns: 2000 }),
    )
  })
})

describe('decideLink', () => {
  test('no link: not found', () => expect(decideLink(null)).toEqual({ ok: false, reason: 'not_found' }))
  test('no partner: misconfigured', () =>
    expect(decideLink({ programId: 1, partnerId: null, active: true, partnerActive: true })).toEqual({
      ok: false,
      reason: 'misconfigured',
    }))
  test('no program: misconfigured', () =>
    expect(decideLink({ programId: null, partnerId: 2, active: true, partnerActive: true })).toEqual({
      ok: false,
      reason: 'misconfigured',
    }))
  test('inactive: disabled', () =>
    expect(decideLink({ programId: 1, partnerId: 2, active: false, partnerActive: true })).toEqual({ ok: false, reason: 'disabled' }))
  test('a partner not active (pending, rejected, suspended, deleted): disabled like a link turned off', () =>
    expect(decideLink({ programId: 1, partnerId: 2, active: true, partnerActive: false })).toEqual({ ok: false, reason: 'disabled' }))
  test('active: ok', () =>
    expect(decideLink({ programId: 1, partnerId: 2, active: true, partnerActive: true })).toEqual({ ok: true, programId: 1, partnerId: 2 }))
})
