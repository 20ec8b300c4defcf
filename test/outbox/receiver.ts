import http from 'node:http'
import { Webhook } from 'standardwebhooks'

export interface Hit {
  id: string
  timestamp: string
  signature: string
  body: string
  json: { type: string; timestamp: string; data: Record<string, any> }
  contentType: string | undefined
}

/**
 * A real HTTP receiver for webhook deliveries on 127.0.0.1. `mode` decides each answer: a status
 * code, `silent` (never answers), or `reset` (drops the connection). Every request is kept.
 */
export async function startReceiver() {
  const hits: Hit[] = []
  const state = { mode: 200 as number | 'silent' | 'reset' }
  const server = http.createServer((request, response) => {
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
      })
      if (state.mode === 'silent') return
      if (state.mode === 'reset') return request.socket.destroy()
      response.writeHead(state.mode).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    hits,
    state,
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
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>
