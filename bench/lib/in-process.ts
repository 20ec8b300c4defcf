import { systemClock } from '../../src/clock.ts'
import { loadConfig } from '../../src/config.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'
import { type StartOptions, startServer, type Started } from '../../src/server.ts'
import { trackerSource } from '../../src/tracker-source.ts'

/**
 * The service in this process, as the load-independent tools run it (micro.ts, pages.ts,
 * read-pages.ts): on an ephemeral port of 127.0.0.1, no request log, nothing written to stdout;
 * `env` adds the database, the admin token and any other setting; `options` the server's others.
 */
export function startQuiet(env: Record<string, string>, options: Partial<StartOptions> = {}): Started {
  return startServer({
    config: loadConfig({ PORT: '0', HOST: '127.0.0.1', SVC_LOG_REQUESTS: 'false', ...env }),
    clock: systemClock,
    runtime: bunRuntime,
    trackerSource,
    log: () => {},
    ...options,
  })
}
