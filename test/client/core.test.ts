// Pure pieces of the client library: Retry-After parsing and reading the click cookie.
import { expect, test } from 'bun:test'
import { retryAfterMs } from '../../src/client/core.ts'
import { readClickId } from '../../src/client/server.ts'

test('Retry-After is read as seconds or as an HTTP-date', () => {
  const now = Date.parse('2026-06-01T12:00:00Z')
  expect(retryAfterMs('3', now)).toBe(3000)
  expect(retryAfterMs('Mon, 01 Jun 2026 12:00:10 GMT', now)).toBe(10_000)
  expect(retryAfterMs('Mon, 01 Jun 2026 11:00:00 GMT', now)).toBe(0)
  expect(retryAfterMs(null, now)).toBeNull()
  expect(retryAfterMs('soon', now)).toBeNull()
})

test('readClickId takes a Fetch Request, a Node-style request or a Cookie header', () => {
  const header = 'theme=dark; svc_click_id=abc123; other=1'
  expect(readClickId(header)).toBe('abc123')
  expect(readClickId(new Request('http://shop.test/', { headers: { cookie: header } }))).toBe('abc123')
  expect(readClickId({ headers: { cookie: header } })).toBe('abc123')
  expect(readClickId({ headers: { cookie: ['a=1', 'svc_click_id=fromArray'] } })).toBe('fromArray')
})

test('readClickId answers null when the cookie is absent, empty or only a prefix matches', () => {
  expect(readClickId('')).toBeNull()
  expect(readClickId(undefined)).toBeNull()
  expect(readClickId({ headers: {} })).toBeNull()
  expect(readClickId('svc_click_id=')).toBeNull()
  expect(readClickId('xsvc_click_id=nope; svc_click_id_old=nope')).toBeNull()
  expect(readClickId('svc_click_id="quoted%20id"')).toBe('quoted id')
})
