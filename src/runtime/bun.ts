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
      // Graceful: in-flight requests finish (their writes commit and are answered); idle
      // keep-alive connections are closed after a grace period.
      async stop() {
        await Promise.race([server.stop(false), new Promise((resolve) => setTimeout(resolve, 5_000))])
        await server.stop(true)
      },
    }
  },
}
