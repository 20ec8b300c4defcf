import { createHmac } from 'node:crypto'
import { isLoopback } from '../domain/network.ts'

/**
 * An IP as the fraud rules keep it (docs/decisions.md, Fraud signals and review: never raw): an
 * HMAC-SHA-256 keyed with SVC_SECRET, its first 22 base64url characters (132 bits). Without the key nobody can
 * test an address against a stored hash. Null when the IP is not known, and for a loopback address:
 * same_ip never counts the machine itself (docs/decisions.md, The first hour: a local test, or a
 * proxy without TRUST_PROXY, would otherwise hold every commission).
 */
export function ipHash(secret: string, ip: string | null): string | null {
  if (ip === null || ip === '' || ip === 'unknown' || isLoopback(ip)) return null
  return createHmac('sha256', secret).update(`svc-ip:${ip}`).digest('base64url').slice(0, 22)
}
