import { createHmac } from 'node:crypto'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import type { DueDelivery, WebhookStore } from '../db/webhook-store.ts'
import { isPrivateAddress } from '../domain/address.ts'
import { webhookRetryAt } from './schedule.ts'
import { type Courier, shortError } from './sender.ts'

/** docs/decisions.md, Outbound webhooks: a 2xx within 15 s is delivered. */
const TIMEOUT_MS = 15_000
/** An endpoint with only failures for 3 days is set inactive. */
const FAILING_FOR_MS = 72 * 3_600_000

/** A failed attempt, with the status code when the receiver answered. */
export class AttemptError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
  ) {
    super(message)
  }
}

/**
 * The Standard Webhooks signature of one attempt: `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed with the bytes after `whsec_` (base64-decoded).
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/**
 * The DNS lookup of a delivery: every address a name resolves to is checked, and the connection
 * goes to the address checked (a DNS answer that changes between a check and the connection
 * cannot slip through: there is one answer).
 */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error)
      const bad = addresses.find((a) => isPrivateAddress(a.address))
      if (bad && !allowPrivate) return callback(new AttemptError(`${hostname} resolves to ${bad.address}, a private address: refused`))
      if ((options as { all?: boolean }).all) return callback(null, addresses)
      const first = addresses[0]!
      callback(null, first.address, first.family)
    })
  }
}

/** Whether a URL may be posted to: http(s), and not a literal private address unless allowed. Null when fine, else why not. */
export function refusedUrl(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an http(s) URL'
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  if (!allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost')))
    return 'url must not point at a loopback, private, link-local or unique-local address'
  return null
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 8 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 8 }),
}

/** POSTs `body` and answers the status code; no redirect is followed; 15 s at most in all. */
function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean, timeoutMs: number): Promise<number> {
  const refused = refusedUrl(url, allowPrivate)
  if (refused) return Promise.reject(new AttemptError(refused))
  const lib = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    // Settled once, by whichever comes first: the answer's status, an error, or the deadline
    // (which rejects by itself, whatever the runtime does with the destroyed request).
    let settled = false
    const settle = (finish: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      finish()
    }
    const request = lib.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(allowPrivate) as never,
      },
      (response) => {
        // Only the status counts; the body is drained unread so that the connection is kept.
        response.resume()
        response.on('error', () => {})
        settle(() => resolve(response.statusCode ?? 0))
      },
    )
    const timer = setTimeout(() => {
      settle(() => reject(new AttemptError(`no answer within ${timeoutMs / 1000} s`)))
      request.destroy()
    }, timeoutMs)
    request.on('error', (error) => settle(() => reject(error instanceof AttemptError ? error : new AttemptError(shortError(error)))))
    request.end(body)
  })
}

/**
 * The webhook outbox's courier. `onDisabled` is told of an endpoint set inactive after 3 days of
 * failures (its account is emailed), inside the recording unit.
 */
export function webhookCourier(
  store: WebhookStore,
  options: {
    allowPrivate: boolean
    realNow: () => number
    /** The injected clock: the old secret's 24 hours are a time rule like the others (docs/decisions.md, Time). */
    now: () => number
    onDisabled: (endpointId: number, programId: number, now: number) => void
    /** 15 s (docs/decisions.md); a test of a receiver that never answers may wait less. */
    timeoutMs?: number
  },
): Courier<DueDelivery, number> {
  return {
    anyDue: (now) => store.anyDue(now),
    claim: (now) => store.claim(now, 200),
    async deliver({ endpoint, event }) {
      // The header carries the attempt's real time: receivers compare it with their own clocks.
      const timestamp = Math.floor(options.realNow() / 1000)
      const signatures = [signature(endpoint.secret, event.eventId, timestamp, event.body)]
      if (endpoint.previousSecret && endpoint.previousUntil !== null && endpoint.previousUntil > options.now()) {
        signatures.push(signature(endpoint.previousSecret, event.eventId, timestamp, event.body))
      }
      const status = await post(
        new URL(endpoint.url),
        event.body,
        {
          'content-type': 'application/json',
          'user-agent': 'svc-webhooks',
          'webhook-id': event.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatures.join(' '),
        },
        options.allowPrivate,
        options.timeoutMs ?? TIMEOUT_MS,
      )
      if (status < 200 || status > 299) throw new AttemptError(`HTTP ${status}`, status)
      return status
    },
    sent({ delivery, endpoint }, now, status) {
      store.recordAttempt(delivery.id, { ok: true, statusCode: status, error: null, next: null }, now)
      // Only an endpoint in a run of failures has one to end.
      if (endpoint.failingSince !== null) store.noteEndpoint(endpoint.id, true, now)
    },
    failed({ delivery, endpoint }, error, now) {
      const statusCode = error instanceof AttemptError ? error.statusCode : null
      const next = webhookRetryAt(delivery.attempts + 1, now)
      store.recordAttempt(delivery.id, { ok: false, statusCode, error: shortError(error), next }, now)
      const since = store.noteEndpoint(endpoint.id, false, now)
      if (since !== null && now - since >= FAILING_FOR_MS) {
        store.disable(endpoint.id, now)
        options.onDisabled(endpoint.id, endpoint.programId, now)
      }
    },
  }
}
