import http from 'node:http'

/**
 * A webhook receiver for the benchmark (issue 25) on 127.0.0.1: answers 204 at once and records,
 * for each delivery, the lag from the event's commit (the `timestamp` inside its body) to its
 * arrival here, in ms.
 */
export async function startBenchReceiver() {
  const lags: number[] = []
  let first = 0
  let last = 0
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const now = Date.now()
      if (first === 0) first = now
      last = now
      try {
        lags.push(now - Date.parse(JSON.parse(body).timestamp))
      } catch {
        lags.push(Number.NaN)
      }
      response.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get count() {
      return lags.length
    },
    /** Events per second between the first and the last arrival; lag percentiles in ms. */
    figures() {
      const sorted = lags.filter((l) => !Number.isNaN(l)).sort((a, b) => a - b)
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
      const seconds = Math.max(0.001, (last - first) / 1000)
      return {
        delivered: lags.length,
        perSecond: lags.length / seconds,
        p50: at(0.5),
        p99: at(0.99),
        max: sorted[sorted.length - 1] ?? Number.NaN,
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
