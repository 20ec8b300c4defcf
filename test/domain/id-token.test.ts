import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'bun:test'
import { signIdToken, verifyIdToken } from '../../src/domain/id-token.ts'

const SECRET = 'secret-of-the-server-0123456789'
const ISSUER = 'https://svc.example'
const NOW = Date.parse('2026-06-01T12:00:00Z')
const claims = { sub: 7, iss: ISSUER, aud: 'svc-cli' as const, iat: NOW / 1000, exp: NOW / 1000 + 300, jti: 'j1' }
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
/** A token of any payload text, rightly signed: what only the server could make. */
const signed = (payload: string) => {
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`
}

describe('id tokens', () => {
  test('a token made by signIdToken is an HS256 JWT whose parts say what it is', () => {
    const [header, payload, signature] = signIdToken(claims, SECRET).split('.')
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toEqual(claims)
    expect(signature).toBe(createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url'))
  })

  const token = signIdToken(claims, SECRET)
  const rows: [string, string, string, number, unknown][] = [
    ['valid', token, SECRET, NOW, { ok: true, claims }],
    ['valid until the last millisecond', token, SECRET, claims.exp * 1000 - 1, { ok: true, claims }],
    ['expired at exp', token, SECRET, claims.exp * 1000, { ok: false, reason: 'expired' }],
    ['another secret', token, 'another-secret', NOW, { ok: false, reason: 'bad_signature' }],
    ['a signature cut short', token.slice(0, -1), SECRET, NOW, { ok: false, reason: 'bad_signature' }],
    [
      'a payload changed',
      token.replace(/\.[^.]+\./, `.${b64({ ...claims, sub: 8 })}.`),
      SECRET,
      NOW,
      { ok: false, reason: 'bad_signature' },
    ],
    ['two parts', token.split('.').slice(0, 2).join('.'), SECRET, NOW, { ok: false, reason: 'malformed' }],
    ['four parts', `${token}.x`, SECRET, NOW, { ok: false, reason: 'malformed' }],
    ['a signed payload that is no JSON', signed('{not json'), SECRET, NOW, { ok: false, reason: 'malformed' }],
    ['another issuer', signIdToken({ ...claims, iss: 'https://other.example' }, SECRET), SECRET, NOW, { ok: false, reason: 'foreign' }],
    ['another audience', signed(JSON.stringify({ ...claims, aud: 'web' })), SECRET, NOW, { ok: false, reason: 'foreign' }],
    ['a sub that is no integer', signed(JSON.stringify({ ...claims, sub: '7' })), SECRET, NOW, { ok: false, reason: 'foreign' }],
    ['a fractional sub', signed(JSON.stringify({ ...claims, sub: 7.5 })), SECRET, NOW, { ok: false, reason: 'foreign' }],
    ['no exp', signed(JSON.stringify({ ...claims, exp: undefined })), SECRET, NOW, { ok: false, reason: 'expired' }],
    ['an exp that is text', signed(JSON.stringify({ ...claims, exp: String(claims.exp) })), SECRET, NOW, { ok: false, reason: 'expired' }],
  ]
  for (const [name, t, secret, now, expected] of rows)
    test(name, () => expect(verifyIdToken(t, secret, ISSUER, now)).toEqual(expected as never))
})
