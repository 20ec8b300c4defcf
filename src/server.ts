import { randomBytes } from 'node:crypto'
import type { Clock } from './clock.ts'
import type { Email } from './db/email-store.ts'
import { emailCourier, logCourier, programFrom } from './outbox/email.ts'
import { webhookDisabled } from './outbox/messages.ts'
import { ATTEMPT_MS, TEST_ATTEMPT_MS } from './outbox/webhooks/attempt.ts'
import { SenderThread } from './outbox/webhooks/sender-thread.ts'
import { WebhookPool } from './outbox/webhooks/pool.ts'
import { subjectEventBody } from './tracking/webhook-events.ts'
import { Sender } from './outbox/sender.ts'
import { railsOf } from './payouts/rails.ts'
import type { Config } from './config.ts'
import { MigrationEditedError } from './db/migrate.ts'
import { ledgerKey } from './tracking/statements.ts'
import { openDatabase, type Database } from './db/open.ts'
import { createApp } from './http/app.ts'
import { LOG_HOLD_MS, lineLog } from './log.ts'
import type { Deps } from './http/deps.ts'
import { RateLimiter } from './http/pipeline/rate-limit.ts'
import { VisitorCounts } from './tracking/visitor-counts.ts'
import { drainable } from './http/pipeline/shutdown.ts'
import type { Runtime } from './runtime/runtime.ts'

export interface Started {
  url: string
  port: number
  deps: Deps
  /**
   * Stops gracefully (docs/decisions.md, Shutdown): running requests finish, requests that arrive
   * meanwhile answer 503 with `Connection: close` (for `quietMs` after the last one, so that
   * idle keep-alive clients get theirs: the process on SIGTERM; tests stop at once), then every
   * connection is closed, the writer flushed and the database closed. Resolves within
   * `DRAIN_MS` plus the close.
   */
  stop(quietMs?: number): Promise<void>
}

/** The longest a stop waits for running requests: docs/decisions.md gives the whole exit 10 seconds. */
export const DRAIN_MS = 7_000

/** The longest a stop waits for the runtime to close its listener and connections. */
const STOP_LISTENER_MS = 1_000
/** Requests answered at once past which the server counts as busy: webhook attempts wait their turn (docs/decisions.md, delivery work never slows tracking). */
const BUSY_REQUESTS = 4
/** Over how long the requests in flight are looked at (their most at once) to say whether the server is busy. */
const BUSY_WINDOW_MS = 20

/** The quiet time of a stop on SIGTERM: long enough for a busy client's next request on a kept-alive connection. */
export const QUIET_MS = 250

/** A start that failed on a setting's value (the database file, the address): boot names it and exits 2. */
export class StartError extends Error {}

const reason = (error: unknown) => String((error as Error)?.message ?? error)

export interface StartOptions {
  config: Config
  clock: Clock
  runtime: Runtime
  trackerSource: string
  log?: Deps['log']
  /** In-memory copies of links and keys (src/db/catalog.ts); off only when another process writes the database. */
  catalog?: boolean
  /** Where the first run's line goes (docs/decisions.md: stderr); tests read it here. */
  announce?: (line: string) => void
  /** How often the outbox looks for due rows (real time); 1 s unless a test wants less. */
  outboxIntervalMs?: number
  /** How long a webhook attempt may take: 15 s unless a test of a silent receiver wants less. */
  webhookTimeoutMs?: number
  /** While this many requests are being answered, webhook attempts are paced (src/outbox/webhooks/pool.ts); 4 unless a test wants another. */
  webhookBusyRequests?: number
  webhookBusyGapMs?: number
}

/** A setup code: 12 characters of an alphabet of 31 without look-alikes (59 bits), in groups of four. */
function newSetupCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
  const bytes = randomBytes(12)
  let code = ''
  for (let i = 0; i < 12; i++) code += (i > 0 && i % 4 === 0 ? '-' : '') + alphabet[bytes[i]! % alphabet.length]
  return code
}

/** Opens and migrates the database, builds the app and serves it: the whole service in one call. */
export function startServer(options: StartOptions): Started {
  const { config, clock, runtime } = options
  let database: Database
  try {
    database = openDatabase(runtime, config.databasePath, { catalog: options.catalog })
  } catch (error) {
    if (error instanceof MigrationEditedError) throw new StartError(`DATABASE_PATH "${config.databasePath}": ${error.message}`)
    throw new StartError(`DATABASE_PATH "${config.databasePath}" cannot be opened: ${reason(error)}`)
  }
  // Written at the end of the event-loop turn, at most every LOG_HOLD_MS while busy; stop() writes
  // what is left (src/log.ts).
  const stdoutLog = options.log ? null : lineLog(undefined, { holdMs: LOG_HOLD_MS })
  const deps: Deps = {
    config,
    clock,
    database,
    limiter: new RateLimiter(() => clock.now()),
    visitors: new VisitorCounts(),
    findKey: (token) => database.stores.programs.findKey(token),
    // SVC_SECRET when configured, else the one generated on first start and kept in the database.
    secret: config.secret ?? database.stores.settings.serverSecret(),
    trackerSource: options.trackerSource,
    log: options.log ?? stdoutLog!,
    discardsUnreadBodies: runtime.discardsUnreadBodies,
    firstRun: { code: null },
    mail: {
      delivery: config.smtpUrl !== null ? 'smtp' : config.mailLog ? 'log' : 'off',
      baseUrl: config.publicBaseUrl,
      wake: () => emailSender.wake(),
    },
    webhookPool: { wake: () => webhookPool.wake(), attemptNow: (row) => webhookPool.attemptNow(row) },
    payoutRails: railsOf(config),
    payoutSender: { wake: () => payoutSender.wake() },
  }
  // The most requests answered at once lately, once the server listens: the pool paces its attempts while they are many.
  let recentRequests = () => 0
  // The webhook outbox's pool (src/outbox/webhooks/pool.ts): always on (an endpoint is what turns a
  // program's events on); its attempts are sent from a worker thread started by the first one.
  const senderThread = new SenderThread(deps.log)
  const webhookPool = new WebhookPool(database.writer, clock, database.stores.webhooks, {
    intervalMs: Math.min(options.outboxIntervalMs ?? 500, 500),
    timeoutMs: options.webhookTimeoutMs ?? ATTEMPT_MS,
    testTimeoutMs: Math.min(options.webhookTimeoutMs ?? TEST_ATTEMPT_MS, TEST_ATTEMPT_MS),
    allowPrivate: config.webhooksAllowPrivate,
    send: (job) => senderThread.send(job),
    busy: () => recentRequests() >= (options.webhookBusyRequests ?? BUSY_REQUESTS),
    busyGapMs: options.webhookBusyGapMs,
    log: deps.log,
    onDisabled: (endpointId, programId, now) => {
      const program = database.stores.programs.findProgram(programId)
      const owner = program && database.stores.accounts.ownerEmailOf(program.advertiserId)
      if (!program || !owner) return
      const page = `${config.publicBaseUrl}/dashboard/programs/${programId}/webhooks`
      const endpoint = database.stores.webhooks.find(endpointId)
      database.stores.emails.queue(webhookDisabled(program, owner, endpoint?.url ?? '', page), now)
    },
  })
  database.stores.webhooks.onRecorded = () => webhookPool.wake()
  database.stores.webhooks.bodyOf = (event) => subjectEventBody(deps, event)
  // The import job (src/imports/importer.ts), loaded with the first import (issue 36: an idle start
  // loads nothing it does not need): an import left running by a process that stopped goes on.
  const importJob = onDemand(
    deps.log,
    'import runner',
    async () =>
      new (await import('./imports/importer.ts')).ImportRunner({
        database,
        clock,
        secret: deps.secret,
        allowPrivate: config.allowPrivateUrls,
      }),
  )
  const importRunner = {
    ...importJob,
    cancel: (importId: number, write: (now: number) => void) => importJob.use((runner) => runner.cancel(importId, write)),
  }
  deps.importRunner = importRunner
  // The email outbox's sender (src/outbox/README.md): claims left by a process that died are this
  // one's now. Without SMTP_URL each email is a line on stderr, recorded as logged: nothing is lost.
  database.stores.emails.releaseClaims()
  const mailLine = options.announce ?? ((text: string) => console.error(text))
  const emailSender: Sender<Email> = new Sender(
    database.writer,
    clock,
    config.smtpUrl === null
      ? logCourier(database.stores.emails, config.mailLog ? mailLine : null)
      : emailCourier(database.stores.emails, config.smtpUrl, (email) =>
          config.mailFromSet || email.programId === null
            ? config.mailFrom
            : programFrom(config.mailFrom, database.stores.programs.findProgram(email.programId)?.name ?? null),
        ),
    { intervalMs: options.outboxIntervalMs ?? 1000, concurrency: 4, log: deps.log, name: 'email' },
  )
  // src/payouts/send.ts, loaded with the first send: the sends a process that died left are sent
  // again, with their keys, from the start (and polled until final).
  const payoutSender = onDemand(deps.log, 'payout sender', async () => {
    const sender = new (await import('./payouts/send.ts')).PayoutSender(deps, deps.payoutRails, {
      intervalMs: options.outboxIntervalMs ?? 1000,
      log: deps.log,
    })
    sender.start()
    return sender
  })
  // docs/ledger.md: the statement key exists from the first start on, so the first backup carries it.
  ledgerKey(deps)
  // docs/decisions.md, First run: a fresh code at each start while no account exists, printed once.
  if (!database.stores.accounts.hasAccounts()) deps.firstRun.code = newSetupCode()
  const gate = drainable(createApp(deps).fetch)
  recentRequests = () => gate.recentPeak(BUSY_WINDOW_MS)
  const fetch = gate.fetch
  let served: ReturnType<Runtime['serve']>
  try {
    served = runtime.serve({ port: config.port, hostname: config.host, fetch })
  } catch (error) {
    database.close()
    throw new StartError(`cannot listen on HOST "${config.host}" PORT ${config.port}: ${reason(error)}`)
  }
  emailSender.start()
  emailSender.wake()
  webhookPool.start()
  if (database.stores.payoutSends.anyOpen()) payoutSender.wake()
  if (database.stores.imports.nextOpen()) importRunner.wake()
  // Said once the server listens, so that the page it names answers.
  if (deps.firstRun.code !== null) {
    const line = `svc: first run: open ${config.publicBaseUrl}/setup and enter the setup code ${deps.firstRun.code}`
    ;(options.announce ?? ((text: string) => console.error(text)))(line)
  }
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return {
    url: `http://${host}:${served.port}`,
    port: served.port,
    deps,
    async stop(quietMs = 0) {
      await gate.drain(DRAIN_MS, quietMs)
      await emailSender.stop()
      await webhookPool.stop()
      await payoutSender.stop()
      await importRunner.stop()
      senderThread.stop()
      // Bounded: Bun's stop(true) has been seen never to resolve while a handler is still pending,
      // and a stop must not hang the exit (docs/decisions.md, Shutdown: within 10 seconds).
      await Promise.race([served.stop(), new Promise<void>((resolve) => setTimeout(resolve, STOP_LISTENER_MS))])
      database.writer.drain()
      database.close()
      stdoutLog?.flush()
    },
  }
}

/**
 * A background job loaded when it first has work (issue 36): `wake` loads it once and wakes it;
 * `stop` stops it when it was loaded. A module that cannot load is logged, and tried again at the
 * next wake.
 */
function onDemand<T extends { wake(): void; stop(): Promise<void> }>(log: Deps['log'], name: string, load: () => Promise<T>) {
  let job: Promise<T> | null = null
  return {
    wake(): void {
      job ??= load()
      job.then(
        (loaded) => loaded.wake(),
        (error) => {
          job = null
          log({ level: 'error', msg: `${name} did not load`, error: reason(error) })
        },
      )
    },
    async stop(): Promise<void> {
      if (job) await (await job.catch(() => null))?.stop()
    },
    /** Loads the job (when it is not yet) and runs `act` with it. */
    async use<R>(act: (loaded: T) => Promise<R>): Promise<R> {
      job ??= load()
      return act(await job)
    },
  }
}
