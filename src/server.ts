import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Clock } from './clock'
import type { Config } from './config'
import { keyLookup } from './db/credentials'
import { openDatabase, type Database } from './db/open'
import { settings } from './db/schema'
import { createApp } from './http/app'
import { lineLog } from './log'
import type { Deps } from './http/deps'
import { RateLimiter } from './http/rate-limit'
import type { Runtime } from './runtime/runtime'

export interface Started {
  url: string
  port: number
  deps: Deps
  stop(): Promise<void>
}

/** A start that failed on a setting's value (the database file, the address): boot names it and exits 2. */
export class StartError extends Error {}

const reason = (error: unknown) => String((error as Error)?.message ?? error)

/** SVC_SECRET when configured, else the one generated on first start and kept in the database. */
function serverSecret(database: Database, configured: string | null): string {
  if (configured) return configured
  const { db } = database
  const stored = db.select().from(settings).where(eq(settings.key, 'secret')).get()
  if (stored) return stored.value
  const secret = randomBytes(32).toString('base64url')
  db.insert(settings).values({ key: 'secret', value: secret }).onConflictDoNothing().run()
  return db.select().from(settings).where(eq(settings.key, 'secret')).get()!.value
}

/** Opens and migrates the database, builds the app and serves it: the whole service in one call. */
export function startServer(options: { config: Config; clock: Clock; runtime: Runtime; trackerSource: string; log?: Deps['log'] }): Started {
  const { config, clock, runtime } = options
  let database: Database
  try {
    database = openDatabase(runtime, config.databasePath)
  } catch (error) {
    throw new StartError(`DATABASE_PATH "${config.databasePath}" cannot be opened: ${reason(error)}`)
  }
  // Written once per event-loop turn; stop() writes what is left (src/log.ts).
  const stdoutLog = options.log ? null : lineLog()
  const deps: Deps = {
    config,
    clock,
    database,
    limiter: new RateLimiter(() => clock.now()),
    findKey: keyLookup(database),
    secret: serverSecret(database, config.secret),
    trackerSource: options.trackerSource,
    log: options.log ?? stdoutLog!,
  }
  const { fetch } = createApp(deps)
  let served: ReturnType<Runtime['serve']>
  try {
    served = runtime.serve({ port: config.port, hostname: config.host, fetch })
  } catch (error) {
    database.close()
    throw new StartError(`cannot listen on HOST "${config.host}" PORT ${config.port}: ${reason(error)}`)
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return {
    url: `http://${host}:${served.port}`,
    port: served.port,
    deps,
    async stop() {
      await served.stop()
      database.writer.drain()
      database.close()
      stdoutLog?.flush()
    },
  }
}
