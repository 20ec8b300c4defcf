import { Database } from 'bun:sqlite'
import type { Runtime, SqliteDatabase } from './runtime.ts'

/** The Bun adapter: bun:sqlite and Bun.serve. */
export const bunRuntime: Runtime = {
  name: 'bun',
  discardsUnreadBodies: true,
  openSqlite(path) {
    return new Database(path, { create: true, strict: true }) as unknown as SqliteDatabase
  },
  serve({ port, hostname, fetch }) {
    const server = Bun.serve({
      port,
      hostname,
      // Bodies above a route's limit are refused by the app with the JSON envelope, after it has
      // drained them (src/http/body.ts, DRAIN_LIMIT: 64 MiB). This ceiling sits above that so that
      // Bun's own bare 413 or reset never answers first; past it the transport closes.
      maxRequestBodySize: 65 * 1024 * 1024,
      fetch(request, srv) {
        return fetch(request, () => srv.requestIP(request)?.address)
      },
    })
    return {
      port: server.port ?? port,
      // server.ts drains first (503 + Connection: close to late requests); what is left are idle
      // keep-alive connections. stop(false) would close those at once too, before the drain.
      async stop() {
        await server.stop(true)
      },
    }
  },
}
