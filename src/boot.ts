import { systemClock, type Clock } from './clock'
import { ConfigError, loadConfig } from './config'
import type { Runtime } from './runtime/runtime'
import { QUIET_MS, StartError, startServer } from './server'
import { trackerSource } from './tracker-source'

export interface BootOptions {
  /** The clock of every time rule; the system clock unless a test moves its own (test/deno-server.ts). */
  clock?: Clock
  /** In-memory copies of links and keys (src/db/catalog.ts); off only when another process writes the database. */
  catalog?: boolean
}

/** Starts the service on `runtime` from the environment; exits 2 with a clear message on a bad value. */
export function boot(runtime: Runtime, env: Record<string, string | undefined>, options: BootOptions = {}): void {
  let config
  try {
    config = loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
  let server
  try {
    server = startServer({ config, clock: options.clock ?? systemClock, runtime, trackerSource, catalog: options.catalog })
  } catch (error) {
    if (error instanceof StartError) {
      console.error(`svc: configuration error: ${error.message}`)
      process.exit(2)
    }
    throw error
  }
  console.log(JSON.stringify({ level: 'info', msg: 'svc listening', url: server.url, runtime: runtime.name, database: config.databasePath, admin_api: config.adminToken !== null }))
  // docs/decisions.md, Shutdown: finish what is running, flush the writer, exit 0 within 10 s. A second
  // signal while stopping changes nothing.
  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    await server.stop(QUIET_MS)
    process.exit(0)
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}
