import { isIP } from 'node:net'
import { isPrivateAddress } from '../../domain/address.ts'

// The address rules of an outgoing request, apart from the HTTP client that sends it (post.ts):
// an endpoint's URL is checked when it is added, in the thread that serves requests, which loads
// node:http and node:dns only with its first attempt (issue 36: a start loads what it needs).

/** A failed attempt, with the status code when the receiver answered. */
export class AttemptError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
  ) {
    super(message)
  }
}

/** The words of a refused address (docs/decisions.md, Webhook delivery: never what a name resolved to). */
export const PRIVATE_URL = 'url must not point at a loopback, private, link-local or unique-local address'

/** A URL's host as an address or a name: an IPv6 literal without its brackets. */
export const hostOf = (url: URL) => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname)

/** Whether a URL may be posted to: http(s), and not a literal private address unless allowed. Null when fine, else why not. */
export function refusedUrl(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an http(s) URL'
  const host = hostOf(url)
  if (!allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) return PRIVATE_URL
  return null
}
