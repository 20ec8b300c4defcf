import { systemClock, type Clock } from './clock.ts'
import { ConfigError, loadConfig } from './config.ts'
import type { Runtime } from './runtime/runtime.ts'
import { QUIET_MS, StartError, startServer } from './server.ts'
import { trackerSource } from './tracker-source.ts'

/** docs/decisions.md, Shutdown: exit within 10 seconds of SIGTERM, whatever the stop is waiting for. */
const EXIT_DEADLINE_MS = 9_500

export interface BootOptions {
  /** The clock of every time rule; the system clock unless a test moves its own (test/deno-server.ts). */
  clock?: Clock
  /** In-memory copies of links and keys (src/db/catalog.ts); off only when another process writes the database. */
  catalog?: boolean
  /** The outbox's polling and the webhook timeout, shortened by the tests (StartOptions). */
  outboxIntervalMs?: number
  webhookTimeoutMs?: number
}

/** Starts the service on `runtime` from the environment; exits 2 with a clear message on a bad value. */
export function boot(runtime: Runtime, env: Record<string, string | undefined>, options: BootOptions = {}): void {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
  for (const warning of config.warnings) console.error(JSON.stringify({ level: 'warn', msg: warning }))
  let server: ReturnType<typeof startServer>
  try {
    server = startServer({
      config,
      clock: options.clock ?? systemClock,
      runtime,
      trackerSource,
      catalog: options.catalog,
      outboxIntervalMs: options.outboxIntervalMs,
      webhookTimeoutMs: options.webhookTimeoutMs,
    })
  } catch (error) {
    if (error instanceof StartError) {
      console.error(`svc: configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
  console.log(
    JSON.stringify({
      level: 'info',
      msg: 'svc listening',
      url: server.url,
      // The address to open in a browser (docs/decisions.md, The first hour): the pages' forms are
      // accepted from PUBLIC_BASE_URL's origin only; `url` is the socket.
      open: config.publicBaseUrl,
      runtime: runtime.name,
      database: config.databasePath,
      admin_api: config.adminToken !== null,
    }),
  )
  // docs/decisions.md, Shutdown: finish what is running, flush the writer, exit 0 within 10 s. A second
  // signal while stopping changes nothing.
  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    // Whatever happens below, the process is gone within 10 s; a stop that failed exits 1, said.
    setTimeout(() => {
      console.error(JSON.stringify({ level: 'error', msg: 'svc did not stop within 9.5 s; exiting' }))
      process.exit(1)
    }, EXIT_DEADLINE_MS)
    try {
      await server.stop(QUIET_MS)
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', msg: 'svc stop failed', error: String((error as Error)?.stack ?? error) }))
      process.exit(1)
    }
    console.log(JSON.stringify({ level: 'info', msg: 'svc stopped' }))
    process.exit(0)
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}
