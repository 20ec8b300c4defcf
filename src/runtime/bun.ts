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
      // Bodies above a route's limit are refused by the app with the JSON envelope (src/http/body.ts):
      // Bun's own ceiling is lifted so that its bare 413 never answers first, whatever length a
      // request declares. The app never holds more than a route's limit of any body.
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      fetch(request, srv) {
        return fetch(request, () => srv.requestIP(request)?.address)
      },
    })
    // The start leaves garbage (module set-up, migrations, route building): one full collection soon
    // after, rather than whenever the heap next grows, gives an idle server its memory back (issue 36).
    setTimeout(() => Bun.gc(true), 250).unref()
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
