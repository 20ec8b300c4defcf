import type { TrustProxy } from '../../config.ts'
import type { PeerAddress } from '../../runtime/runtime.ts'

/**
 * The client IP for rate limits and click records (docs/decisions.md, configuration).
 * - TRUST_PROXY=false: the TCP peer, since any header is anyone's to forge.
 * - true (nginx, Caddy, a load balancer): the right-most X-Forwarded-For entry, the address the
 *   proxy itself saw. Entries to its left are the client's own writing, so they never count; a
 *   client-sent Fly-Client-IP is ignored, since these proxies pass it through untouched.
 * - fly: Fly-Client-IP, which Fly's proxy overwrites on every request; else as true.
 */
export function clientIp(request: Request, trustProxy: TrustProxy, peer?: PeerAddress): string {
  if (trustProxy === 'fly') {
    const fly = request.headers.get('fly-client-ip')?.trim()
    if (fly) return fly
  }
  if (trustProxy !== false) {
    const forwarded = request.headers.get('x-forwarded-for')
    if (forwarded) {
      const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim()
      if (last) return last
    }
  }
  return peer?.() ?? 'unknown'
}
