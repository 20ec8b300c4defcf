import type { PeerAddress } from '../../runtime/runtime.ts'
import { errorBody, HttpError, json } from './envelope.ts'
import { shared } from '../../domain/messages.ts'
import { routeOf } from './route-lookup.ts'

type Fetch = (request: Request, peer?: PeerAddress) => Response | Promise<Response>

/** The longest `drain` lingers after in-flight requests are done, however busy the clients. */
const LINGER_MS = 2_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Wraps the app's fetch for a graceful stop (docs/decisions.md, Shutdown). Once `drain` is called,
 * a request that arrives (a new one on an open keep-alive connection) answers 503 `Service is
 * shutting down` with `Connection: close`, and the answers of requests already running carry
 * `Connection: close` too, so that each client closes its connection itself instead of having
 * it reset under a request it has just sent.
 */
export function drainable(fetch: Fetch) {
  let draining = false
  let inFlight = 0
  let lastArrival = 0
  let onIdle: (() => void) | null = null
  // The most requests in flight at once in the current window and the one before (recentPeak).
  let peak = 0
  let previousPeak = 0
  let peakSince = 0

  const done = () => {
    if (--inFlight === 0) onIdle?.()
  }
  const settled = (response: Response) => {
    done()
    return draining ? closing(response) : response
  }
  const failed = (error: unknown): never => {
    done()
    throw error
  }

  /** An answer the app gives at once is passed on at once: no promise per request for a 429. */
  function gated(request: Request, peer?: PeerAddress): Response | Promise<Response> {
    if (draining) {
      lastArrival = performance.now()
      return shuttingDown(request)
    }
    if (++inFlight > peak) peak = inFlight
    let answer: Response | Promise<Response>
    try {
      answer = fetch(request, peer)
    } catch (error) {
      return failed(error)
    }
    return answer instanceof Response ? settled(answer) : answer.then(settled, failed)
  }

  /**
   * Starts answering 503 and resolves once the requests already running are answered and no
   * request has arrived for `quietMs` (at most 2 s more), or after `deadlineMs` whatever is
   * left. The quiet time lets a client that is about to reuse an idle keep-alive connection
   * read its 503 instead of finding the connection closed under its request.
   */
  async function drain(deadlineMs: number, quietMs: number): Promise<void> {
    draining = true
    lastArrival = performance.now()
    const deadline = performance.now() + deadlineMs
    const idle = new Promise<void>((resolve) => {
      onIdle = resolve
      if (inFlight === 0) resolve()
    })
    await Promise.race([idle, sleep(deadlineMs)])
    const lingerEnd = Math.min(deadline, performance.now() + LINGER_MS)
    while (performance.now() < lingerEnd && performance.now() - lastArrival < quietMs) await sleep(25)
  }

  return {
    fetch: gated,
    drain,
    /**
     * The most requests that were in flight at once over the last `windowMs` to 2 × `windowMs`: how
     * busy the server is, which the count at one instant does not say (right after a group commit
     * answers its batch, none may be in flight under a full load).
     */
    recentPeak(windowMs: number): number {
      const now = performance.now()
      if (now - peakSince >= windowMs) {
        previousPeak = now - peakSince >= 2 * windowMs ? inFlight : peak
        peak = inFlight
        peakSince = now
      }
      return Math.max(previousPeak, peak)
    },
  }
}

/** The response with `Connection: close`; a copy when its headers are immutable (Response.redirect). */
function closing(response: Response): Response {
  try {
    response.headers.set('Connection', 'close')
    return response
  } catch {
    const copy = new Response(response.body, response)
    copy.headers.set('Connection', 'close')
    return copy
  }
}

function shuttingDown(request: Request): Response {
  const url = request.url
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  const queryStart = url.indexOf('?', pathStart)
  let end = queryStart === -1 ? url.length : queryStart
  // The pipeline's path has no trailing slash (sale/ is sale: its route's error.code rule applies).
  while (end - pathStart > 1 && url[end - 1] === '/') end--
  const path = url.slice(pathStart, end)
  const error = new HttpError(503, shared.shuttingDown)
  return json(errorBody(error, routeOf(path)), 503, { Connection: 'close', 'Retry-After': '5', 'X-Request-ID': crypto.randomUUID() })
}
