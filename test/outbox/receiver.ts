import { afterAll, beforeAll } from 'bun:test'
import http from 'node:http'
import type { Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { Api } from '../helpers.ts'
import { type Kit, trackingSetup } from '../http/track/kit.ts'

export interface Hit {
  id: string
  timestamp: string
  signature: string
  body: string
  json: { type: string; timestamp: string; data: Record<string, any> }
  contentType: string | undefined
  path: string
  /** When the request's body had arrived (real ms). */
  at: number
}

/**
 * How the receiver answers: a status code; `silent` (never answers); `reset` (drops the
 * connection); `{ holdMs }` (200 after that long); `trickle` (200, then one byte every 100 ms, never
 * ending); `huge` (200 and a 10 MB body, written as fast as the client reads it).
 */
export type Mode = number | 'silent' | 'reset' | 'trickle' | 'huge' | { holdMs: number }

/**
 * A real HTTP receiver for webhook deliveries on 127.0.0.1. `state.mode` decides each answer;
 * `modeFor` overrides it by request path. Every request is kept, with the requests in flight at
 * once (per path and in all), the sockets still open, and the bytes of answer bodies written.
 */
export async function startReceiver() {
  const hits: Hit[] = []
  const state = { mode: 200 as Mode, written: 0 }
  const modeFor = new Map<string, Mode>()
  const intervals: { path: string; start: number; end: number }[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setInterval>>()
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    const interval = { path, start: performance.now(), end: Number.POSITIVE_INFINITY }
    intervals.push(interval)
    response.on('close', () => (interval.end = performance.now()))
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '')
      hits.push({
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        body,
        json: JSON.parse(body || '{}'),
        contentType: request.headers['content-type'],
        path,
        at: Date.now(),
      })
      const mode = modeFor.get(path) ?? state.mode
      if (mode === 'silent') return
      if (mode === 'reset') return request.socket.destroy()
      if (typeof mode === 'object') {
        const timer = setTimeout(() => response.writeHead(200).end('ok'), mode.holdMs)
        response.on('close', () => clearTimeout(timer))
        return
      }
      if (mode === 'trickle') {
        response.writeHead(200, { 'content-type': 'text/plain' })
        const timer = setInterval(() => response.write('.'), 100)
        timers.add(timer)
        response.on('close', () => clearInterval(timer))
        return
      }
      if (mode === 'huge') return writeHuge(response, state)
      response.writeHead(mode).end('ok')
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    hits,
    state,
    modeFor,
    /** The most requests in flight at once among those whose path `matches` (all by default). */
    peak(matches: (path: string) => boolean = () => true): number {
      const edges = intervals
        .filter((i) => matches(i.path))
        .flatMap((i) => [
          [i.start, 1],
          [i.end, -1],
        ])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)
      let open = 0
      let most = 0
      for (const [, step] of edges) most = Math.max(most, (open += step!))
      return most
    },
    /** Sockets still open to the receiver. */
    openSockets: () => sockets.size,
    /** Verifies a hit with the official `standardwebhooks` package and `secret`; answers its payload or throws. */
    verify(hit: Hit, secret: string) {
      return new Webhook(secret).verify(hit.body, {
        'webhook-id': hit.id,
        'webhook-timestamp': hit.timestamp,
        'webhook-signature': hit.signature,
      })
    },
    async waitFor(predicate: (hits: Hit[]) => boolean, ms = 5000): Promise<Hit[]> {
      for (const deadline = Date.now() + ms; !predicate(hits) && Date.now() < deadline; ) await Bun.sleep(20)
      return hits
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const HUGE_BYTES = 10 * 1024 * 1024

/** 200 and 10 MB of body in 64 KB chunks, each written once the client has taken the one before. */
function writeHuge(response: http.ServerResponse, state: { written: number }) {
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(HUGE_BYTES) })
  const chunk = Buffer.alloc(64 * 1024, 120)
  let sent = 0
  const more = () => {
    while (sent < HUGE_BYTES && !response.destroyed) {
      sent += chunk.length
      state.written += chunk.length
      if (!response.write(chunk)) return void response.once('drain', more)
    }
    if (!response.destroyed) response.end()
  }
  more()
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/**
 * A tracking server that may post to 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE) and a receiver, started
 * before the file's tests and stopped after them; read its fields inside the tests.
 */
export function hookedServer(env: Record<string, string> = {}) {
  const server = {} as { api: Api; k: Kit; receiver: Receiver }
  beforeAll(async () => {
    server.receiver = await startReceiver()
    ;({ api: server.api, k: server.k } = await trackingSetup(undefined, { WEBHOOKS_ALLOW_PRIVATE: 'true', ...env }))
  })
  afterAll(async () => {
    await server.api.stop()
    await server.receiver.close()
  })
  return server
}
