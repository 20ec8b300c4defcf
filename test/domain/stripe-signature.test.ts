import { describe, expect, test } from 'bun:test'
import Stripe from 'stripe'
import { parseSignatureHeader, signPayload, verifySignature } from '../../src/domain/stripe-signature.ts'

const stripe = new Stripe('sk_test_signature_tests')
const payload = JSON.stringify({
  id: 'evt_1',
  type: 'checkout.session.completed',
  data: { object: { amount_total: 4200, name: 'Crème brûlée' } },
})
const secret = 'whsec_current'
const now = Date.parse('2026-06-01T12:00:00Z')
const t = Math.floor(now / 1000)

// Stripe's own test header helper (async under Bun: its Web Crypto provider has no sync HMAC).
const header = (options: { timestamp?: number; secret?: string; body?: string } = {}) =>
  stripe.webhooks.generateTestHeaderStringAsync({
    payload: options.body ?? payload,
    secret: options.secret ?? secret,
    timestamp: options.timestamp ?? t,
  })

describe('verifySignature', () => {
  test('accepts a header made by the stripe package, over the string or its exact bytes', async () => {
    const h = await header()
    expect(verifySignature(payload, h, [secret], now)).toEqual({ ok: true, timestamp: t })
    expect(verifySignature(new TextEncoder().encode(payload), h, [secret], now)).toEqual({ ok: true, timestamp: t })
  })

  test.each([
    ['at the edge in the past', -300, true, null],
    ['at the edge in the future', 300, true, null],
    ['one second too old', -301, false, 'stale'],
    ['one second too far ahead', 301, false, 'future'],
  ])('a timestamp %s: ok=%p', async (_name, shift, ok, reason) => {
    const result = verifySignature(payload, await header({ timestamp: t + shift }), [secret], now)
    expect(result.ok).toBe(ok)
    if (!ok) expect(result).toEqual({ ok: false, reason: reason as 'stale' })
  })

  test('any configured secret may match (rotation), and any of several v1 values', async () => {
    const h = await header({ secret: 'whsec_next' })
    expect(verifySignature(payload, h, [secret, 'whsec_next'], now).ok).toBe(true)
    const both = `t=${t},v1=${signPayload(payload, 'whsec_old', t)},v1=${signPayload(payload, secret, t)}`
    expect(verifySignature(payload, both, [secret], now).ok).toBe(true)
  })

  test.each([
    ['no header', null, [secret], 'missing_header'],
    ['no secret configured', 't=1,v1=' + 'a'.repeat(64), [], 'no_secret'],
    ['no v1 signature', `t=${t},v0=${'a'.repeat(64)}`, [secret], 'malformed_header'],
    ['no timestamp', `v1=${'a'.repeat(64)}`, [secret], 'malformed_header'],
    ['a signature that is not hex SHA-256', `t=${t},v1=abc`, [secret], 'malformed_header'],
    ['a signature under another secret', `t=${t},v1=${signPayload(payload, 'whsec_other', t)}`, [secret], 'mismatch'],
    ['a signature of other bytes', `t=${t},v1=${signPayload(payload + ' ', secret, t)}`, [secret], 'mismatch'],
    ['a signature for another timestamp', `t=${t},v1=${signPayload(payload, secret, t - 1)}`, [secret], 'mismatch'],
  ] as const)('refuses %s', (_name, h, secrets, reason) => {
    expect(verifySignature(payload, h, secrets, now)).toEqual({ ok: false, reason })
  })

  test('a stale header with a forged signature reports the mismatch, not the age', () => {
    expect(verifySignature(payload, `t=${t - 10_000},v1=${'0'.repeat(64)}`, [secret], now)).toEqual({ ok: false, reason: 'mismatch' })
  })
})

describe('parseSignatureHeader', () => {
  test('reads t and every v1, ignoring spaces, unknown schemes and upper-case hex', () => {
    const sig = 'AB'.repeat(32)
    expect(parseSignatureHeader(` t=12 , v1=${sig}, v0=zz, x=1,v1=${'c'.repeat(64)}`)).toEqual({
      timestamp: 12,
      signatures: [sig.toLowerCase(), 'c'.repeat(64)],
    })
    expect(parseSignatureHeader('garbage')).toBeNull()
  })
})
