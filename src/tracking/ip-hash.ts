import { createHmac } from 'node:crypto'

/**
 * An IP as the fraud rules keep it (docs/decisions.md, Fraud signals and review: never raw): an
 * HMAC-SHA-256 keyed with SVC_SECRET, its first 22 base64url characters (132 bits). Without the key nobody can
 * test an address against a stored hash. Null when the IP is not known.
 */
export function ipHash(secret: string, ip: string | null): string | null {
  if (ip === null || ip === '' || ip === 'unknown') return null
  return createHmac('sha256', secret).update(`svc-ip:${ip}`).digest('base64url').slice(0, 22)
}
