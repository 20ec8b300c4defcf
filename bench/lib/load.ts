/**
 * One load run with autocannon's programmatic API. autocannon's own percentiles are whole
 * milliseconds, so every response time (a float, in ms) is also recorded here to print p50 and
 * p99 with sub-millisecond precision.
 */
import autocannon from 'autocannon'

export interface Shape {
  method: 'POST' | 'GET'
  path: string
  headers?: Record<string, string>
  /** A fixed body: the request is built once per connection (cheapest for the load generator). */
  body?: string
  /** Or called for each request with its index (0, 1, 2…) in this run; returns the body and extra headers. */
  next?: (n: number) => { body: string; headers?: Record<string, string> }
}

export interface LoadResult {
  requests: number
  seconds: number
  rps: number
  p50: number
  p99: number
  ok2xx: number
  non2xx: number
  statuses: Record<string, number>
  errors: number
  timeouts: number
}

/** Upper bound of recorded response times (a run past it keeps counting but stops recording). */
const MAX_SAMPLES = 4_000_000

export async function load(url: string, shape: Shape, options: { connections: number; seconds: number }): Promise<LoadResult> {
  const samples = new Float64Array(MAX_SAMPLES)
  let recorded = 0
  let n = 0
  const baseHeaders = { 'content-type': 'application/json', ...shape.headers }
  const next = shape.next
  const instance = autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [next
      ? {
          method: shape.method,
          path: shape.path,
          setupRequest: (request: Record<string, unknown>) => {
            const { body, headers } = next(n++)
            return { ...request, body, headers: headers ? { ...baseHeaders, ...headers } : baseHeaders }
          },
        }
      : { method: shape.method, path: shape.path, headers: baseHeaders, body: shape.body ?? '' }],
  })
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (recorded < MAX_SAMPLES) samples[recorded++] = responseTime
  })
  const result = await instance
  const times = samples.subarray(0, recorded).sort()
  const pct = (p: number) => (recorded ? times[Math.min(recorded - 1, Math.floor((p / 100) * recorded))] : NaN)
  const statuses: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count
  const requests = result.requests.total ?? result.requests.sent
  return {
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    p50: pct(50),
    p99: pct(99),
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}
