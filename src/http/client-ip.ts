import type { PeerAddress } from '../runtime/runtime'

/**
 * The client IP for rate limits and click records. Behind a proxy (TRUST_PROXY=true) it is the
 * first X-Forwarded-For entry or Fly-Client-IP; otherwise the TCP peer, since a header is
 * anyone's to forge.
 */
export function clientIp(request: Request, trustProxy: boolean, peer?: PeerAddress): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')
    const first = forwarded?.split(',')[0]?.trim()
    if (first) return first
    const fly = request.headers.get('fly-client-ip')?.trim()
    if (fly) return fly
  }
  return peer?.() ?? 'unknown'
}
