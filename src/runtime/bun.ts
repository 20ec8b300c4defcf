import { Database } from 'bun:sqlite'
import type { Runtime, SqliteDatabase } from './runtime'

/** The Bun adapter: bun:sqlite and Bun.serve. */
export const bunRuntime: Runtime = {
  name: 'bun',
  openSqlite(path) {
    return new Database(path, { create: true, strict: true }) as unknown as SqliteDatabase
  },
  serve({ port, hostname, fetch }) {
    const server = Bun.serve({
      port,
      hostname,
      // Bodies above the app's limit are refused by the app itself with the JSON envelope;
      // this is only the transport's hard ceiling.
      maxRequestBodySize: 1024 * 1024,
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
