import { disableCatalog } from './db/catalog'
import { FileClock, systemClock, type Clock } from './clock'
import { ConfigError, loadConfig } from './config'
import type { Runtime } from './runtime/runtime'
import { QUIET_MS, StartError, startServer } from './server'
import { trackerSource } from './tracker-source'

/** Starts the service on `runtime` from the environment; exits 2 with a clear message on a bad value. */
export function boot(runtime: Runtime, env: Record<string, string | undefined>): void {
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
  // Test only: a clock the test process moves through a file, and no in-memory copies of rows
  // that the test process may change in the shared database (test/helpers.ts, remote mode).
  let clock: Clock = systemClock
  if (env.SVC_TEST_CLOCK_FILE) {
    clock = new FileClock(env.SVC_TEST_CLOCK_FILE)
    disableCatalog()
  }
  let server
  try {
    server = startServer({ config, clock, runtime, trackerSource })
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
