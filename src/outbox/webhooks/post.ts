import { Buffer } from 'node:buffer'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isPrivateAddress } from '../../domain/address.ts'
import { AttemptError, hostOf, refusedUrl } from './target.ts'

/** docs/decisions.md, Webhook delivery: the body of an answer is read up to 64 KB, then the connection ends. */
export const ANSWER_LIMIT_BYTES = 64 * 1024

/**
 * The DNS lookup of a delivery: every address a name resolves to is checked, and the connection
 * goes to the address checked (a DNS answer that changes between a check and the connection
 * cannot slip through: there is one answer). A refusal names the host, never the address.
 */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error)
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
        return callback(new AttemptError(`${hostname} resolves to a private address: refused`))
      if ((options as { all?: boolean }).all) return callback(null, addresses)
      const first = addresses[0]!
      callback(null, first.address, first.family)
    })
  }
}

/**
 * Where node:http's request goes for `url`: its parts, and the guarded lookup, so that the
 * connection is made to the address that was checked (the webhooks' attempts and the imports' reads).
 */
export const guardedTarget = (url: URL, allowPrivate: boolean) => ({
  protocol: url.protocol,
  hostname: hostOf(url),
  port: url.port || undefined,
  path: `${url.pathname}${url.search}`,
  lookup: guardedLookup(allowPrivate) as never,
})

// Kept-alive connections: an answer complete within 64 KB leaves its socket for the endpoint's
// next attempt; any other answer destroys it (docs/decisions.md, turn 4). An idle socket goes after 5 s.
const agentOptions = { keepAlive: true, maxSockets: 16, maxFreeSockets: 2, timeout: 5_000 }
const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) }

/**
 * POSTs `body` and answers the status code once the answer has ended; no redirect is followed.
 * The attempt ends within `timeoutMs`, body included: an answer whose status came in time but
 * whose body has not ended by then, or runs past 64 KB, counts by its status, and its connection
 * is destroyed then. No status in time is a failed attempt.
 */
export function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean, timeoutMs: number): Promise<number> {
  const refused = refusedUrl(url, allowPrivate)
  if (refused) return Promise.reject(new AttemptError(refused))
  const lib = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    let status: number | null = null
    // Settled once, by whichever comes first: the body's end, its 64 KB, an error, or the deadline.
    let settled = false
    const settle = (destroy: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (destroy) request.destroy()
      if (status === null) reject(new AttemptError(`no answer within ${timeoutMs / 1000} s`))
      else resolve(status)
    }
    const request = lib.request(
      {
        ...guardedTarget(url, allowPrivate),
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: agents[url.protocol as 'http:' | 'https:'],
      },
      (response) => {
        status = response.statusCode ?? 0
        // The body is counted, never kept: a large answer costs no memory.
        let read = 0
        response.on('data', (chunk: Uint8Array) => {
          read += chunk.byteLength
          if (read > ANSWER_LIMIT_BYTES) settle(true)
        })
        response.on('end', () => settle(false))
        response.on('error', () => settle(true))
      },
    )
    const timer = setTimeout(() => settle(true), timeoutMs)
    request.on('error', (error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (status !== null) return resolve(status)
      reject(error instanceof AttemptError ? error : new AttemptError(String(error?.message ?? error).slice(0, 300)))
    })
    request.end(body)
  })
}
