import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ApiKey, Program } from './schema.ts'

/** A random URL-safe token of `bytes` random bytes after `prefix` (API keys: 24 bytes, 192 bits). */
export function newToken(prefix: string, bytes = 24): string {
  return prefix + randomBytes(bytes).toString('base64url')
}

/** The SHA-256 hex digest under which a secret is stored; the secret itself never is. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** Compares two equal-length hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** How an issued key is shown after issue: its prefix and a mask. */
export function maskKey(prefix: string): string {
  return `${prefix}${'•'.repeat(16)}`
}

/** A program found by one of its unrevoked API keys (ProgramStore.findKey). */
export interface KeyMatch {
  program: Program
  key: ApiKey
}
