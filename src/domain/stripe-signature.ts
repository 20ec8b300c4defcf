import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Stripe's webhook signature (the `Stripe-Signature` header): `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`,
 * each v1 an HMAC-SHA256 of `<t>.<raw body>` under one of the endpoint's signing secrets.
 * Verified here rather than with the stripe package so that the server needs no SDK and the
 * same code runs on Bun and Deno (node:crypto exists on both).
 */

/** Stripe's default tolerance; applied on both sides, so a timestamp from the future fails too. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

export type SignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing_header' | 'malformed_header' | 'no_secret' | 'stale' | 'future' | 'mismatch' }

/** A hex HMAC-SHA256, as a signature header carries it (Stripe, Paddle, Lemon Squeezy). */
export const HEX_SHA256 = /^[0-9a-f]{64}$/

/** The timestamp and v1 signatures of a header, or null when it has no valid t or no v1. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const at = part.indexOf('=')
    if (at === -1) continue
    const key = part.slice(0, at).trim()
    const value = part.slice(at + 1).trim()
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    // Other schemes (v0 is Stripe's test scheme) are ignored, as Stripe's own libraries do.
    else if (key === 'v1' && HEX_SHA256.test(value.toLowerCase())) signatures.push(value.toLowerCase())
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures }
}

/** The hex v1 signature of `payload` (the exact bytes received) at `timestamp` under `secret`. */
export function signPayload(payload: Uint8Array | string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex')
}

/**
 * Whether `header` signs `payload` under any of `secrets` (several while one is rotated) with a
 * timestamp within `toleranceSeconds` of `nowMs`, before or after. Expected failures are values.
 */
export function verifySignature(
  payload: Uint8Array | string,
  header: string | null,
  secrets: readonly string[],
  nowMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' }
  if (!header) return { ok: false, reason: 'missing_header' }
  const parsed = parseSignatureHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed_header' }
  const { timestamp, signatures } = parsed
  const nowSeconds = Math.floor(nowMs / 1000)
  let matched = false
  // Every pair is compared, without an early exit, so timing says nothing about which one matched.
  for (const secret of secrets) {
    const expected = Buffer.from(signPayload(payload, secret, timestamp), 'hex')
    for (const signature of signatures) {
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched = true
    }
  }
  if (!matched) return { ok: false, reason: 'mismatch' }
  // The age is checked only once the signature is genuine, so a forged header learns nothing from it.
  if (nowSeconds - timestamp > toleranceSeconds) return { ok: false, reason: 'stale' }
  if (timestamp - nowSeconds > toleranceSeconds) return { ok: false, reason: 'future' }
  return { ok: true, timestamp }
}
