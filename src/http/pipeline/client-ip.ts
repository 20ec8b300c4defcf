import type { PeerAddress } from '../../runtime/runtime.ts'

/**
 * The client IP for rate limits and click records. Behind a proxy (TRUST_PROXY=true) it is
 * Fly-Client-IP when present, else the right-most X-Forwarded-For entry: the address the proxy
 * itself saw. Entries to its left are the client's own writing, so the left-most never counts
 * (docs/decisions.md, configuration). Without TRUST_PROXY it is the TCP peer, since any header is
 * anyone's to forge.
 */
export function clientIp(request: Request, trustProxy: boolean, peer?: PeerAddress): string {
  if (trustProxy) {
    const fly = request.headers.get('fly-client-ip')?.trim()
    if (fly) return fly
    const forwarded = request.headers.get('x-forwarded-for')
    if (forwarded) {
      const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim()
      if (last) return last
    }
  }
  return peer?.() ?? 'unknown'
}
