import { expect } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { drizzleOver } from '../src/db/drizzle.ts'
import { createStores } from '../src/db/stores.ts'
import { Writer } from '../src/db/writer.ts'
import { bunRuntime } from '../src/runtime/bun.ts'
import type { SqliteDatabase } from '../src/runtime/runtime.ts'
import { type StartOptions, startServer, type Started } from '../src/server.ts'
import { trackerSource } from '../src/tracker-source.ts'
import { FileClock, ManualClock } from './clocks.ts'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'
export const DAY = 86_400_000
export const days = (n: number) => n * DAY
export const minutes = (n: number) => n * 60_000

export interface Api {
  url: string
  port: number
  clock: TestClock
  server: Started
  dir: string
  /** Error lines the server logged (unexpected failures); tests that inject a failure read them. */
  errors: Record<string, unknown>[]
  /** Warn lines the server logged (a refusal whose cause is told to the operator, not the caller). */
  warnings: Record<string, unknown>[]
  /** The lines the server wrote to stderr at start (the first run's setup code). */
  announced: string[]
  /** Calls the real server; `body` objects are sent as JSON. */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; token?: string }): Promise<Reply>
  /** Calls the operator API with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Reply>
  /** Creates an account, a program, a partner and an active link through the operator API. */
  setupProgram(fields?: Record<string, unknown>): Promise<Fixture>
  stop(): Promise<void>
}

/** The server's clock as tests move it: in process, or through a file for a server in another process. */
export interface TestClock {
  now(): number
  advance(ms: number): void
  set(ms: number): void
}

export interface Reply {
  status: number
  headers: Headers
  body: any
}

export interface Fixture {
  accountId: number
  advertiserId: number
  programId: number
  apiKey: string
  partnerId: number
  linkId: number
  shortLink: string
}

let sequence = 0

const START = Date.parse('2026-06-01T12:00:00Z')
const ROOT = join(import.meta.dir, '..')
const DENO = join(ROOT, 'node_modules/.bin/deno')

/** The runtime the HTTP suites run the server on: Bun in this process, or Deno (SVC_TEST_RUNTIME=deno). */
export const testRuntime = process.env.SVC_TEST_RUNTIME === 'deno' ? 'deno' : 'bun'

interface Hosted {
  server: Started
  clock: TestClock
  readonly errors: Record<string, unknown>[]
  readonly warnings: Record<string, unknown>[]
  readonly announced: string[]
  stop(): Promise<void>
}

/** The webhook pool's settings a test may change (src/server.ts StartOptions). */
type PoolKnobs = Pick<StartOptions, 'webhookTimeoutMs' | 'webhookBusyRequests' | 'webhookBusyGapMs'>

/** The server in this process on Bun, with a manual clock and its error lines collected. */
function hostInProcess(env: Record<string, string>, pool: PoolKnobs = {}): Hosted {
  const clock = new ManualClock(START)
  const errors: Record<string, unknown>[] = []
  const warnings: Record<string, unknown>[] = []
  const announced: string[] = []
  const server = startServer({
    announce: (line) => announced.push(line),
    outboxIntervalMs: 50,
    webhookTimeoutMs: pool.webhookTimeoutMs ?? 400,
    webhookBusyRequests: pool.webhookBusyRequests,
    webhookBusyGapMs: pool.webhookBusyGapMs,
    config: loadConfig(env),
    clock,
    runtime: bunRuntime,
    trackerSource,
    log: (line) => (line.level === 'error' ? errors : line.level === 'warn' ? warnings : []).push(line),
  })
  return { server, clock, errors, warnings, announced, stop: () => server.stop() }
}

/**
 * The server as `deno run test/deno-server.ts` (src/boot.ts on Deno) in a subprocess (docs/decisions.md: the HTTP suite runs
 * against Deno too). The test process reaches what the suites use in process through the same
 * files: the clock through SVC_TEST_CLOCK_FILE, the database through its own connection to the
 * SQLite file, the error lines through the server's log file.
 */
async function hostOnDeno(dir: string, env: Record<string, string>): Promise<Hosted> {
  const clock = new FileClock(join(dir, 'clock'))
  clock.set(START)
  const logPath = join(dir, 'server.log')
  const secret = env.SVC_SECRET ?? 'test-secret-of-the-deno-runs-0123456789'
  const child = Bun.spawn([DENO, 'run', '--node-modules-dir=manual', '-A', 'test/deno-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, SVC_SECRET: secret, SVC_TEST_CLOCK_FILE: join(dir, 'clock') },
    stdout: Bun.file(logPath),
    stderr: Bun.file(join(dir, 'server.err')),
  })
  const lines = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').filter(Boolean) : [])
  let url: string | null = null
  for (const deadline = Date.now() + 20_000; !url && Date.now() < deadline; await Bun.sleep(20)) {
    url =
      lines()
        .map((l) => l.match(/"url":"(http:\/\/[^"]+)"/)?.[1])
        .find(Boolean) ?? null
    if (child.exitCode !== null) break
  }
  if (!url) {
    child.kill()
    throw new Error(
      `deno did not start: ${lines().join('\n')} ${existsSync(join(dir, 'server.err')) ? readFileSync(join(dir, 'server.err'), 'utf8') : ''}`,
    )
  }
  const logged = (level: string) =>
    lines()
      .map((l) => {
        try {
          return JSON.parse(l)
        } catch {
          return null
        }
      })
      .filter((l) => l?.level === level)
  const client = new Database(env.DATABASE_PATH, { strict: true })
  client.exec('PRAGMA busy_timeout = 5000')
  const config = loadConfig(env)
  // No catalog on this side either: every lookup reads the file.
  const sqlite = client as unknown as SqliteDatabase
  const connection = { client: sqlite, db: drizzleOver(sqlite), writer: new Writer(sqlite) }
  const database = { ...connection, stores: createStores(connection, { catalog: false }) }
  const server = {
    url,
    port: Number(new URL(url).port),
    deps: { config, secret, database, findKey: (token: string) => database.stores.programs.findKey(token) },
    stop: async () => {},
  } as unknown as Started
  return {
    server,
    clock,
    get errors() {
      return logged('error')
    },
    get warnings() {
      return logged('warn')
    },
    get announced() {
      const err = join(dir, 'server.err')
      return existsSync(err)
        ? readFileSync(err, 'utf8')
            .split('\n')
            .filter((l) => l.startsWith('svc: '))
        : []
    },
    async stop() {
      child.kill('SIGTERM')
      await child.exited
      client.close()
    },
  }
}

/** Runs `run` with a server of the test's own (broken on purpose, or at docs/api.md's real limits), stopped whatever happens. */
export async function withOwnServer(run: (api: Api) => Promise<void>): Promise<void> {
  const api = await startApi()
  try {
    await run(api)
  } finally {
    await api.stop()
  }
}

/** A TCP port free on 127.0.0.1 right now (for a server whose address must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * The environment of a server reached at the address it calls its PUBLIC_BASE_URL, as a browser
 * reaches a deployed one: the pages' forms are accepted only from that origin.
 */
export async function atPublicUrl(): Promise<Record<string, string>> {
  const port = await freePort()
  return { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }
}

/**
 * Starts the real server on port 0 over a fresh SQLite file in a temp dir, with a manual clock.
 * `webhookTimeoutMs`: a webhook attempt's deadline, 400 ms unless a test of the pool wants the
 * real 15 s (on Bun only; the Deno server keeps 400 ms).
 */
export async function startApi(options: { env?: Record<string, string> } & PoolKnobs = {}): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'))
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'svc.db'),
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_LOG_REQUESTS: 'false',
    ...options.env,
  }
  const hosted = testRuntime === 'deno' ? await hostOnDeno(dir, env) : hostInProcess(env, options)
  const { server, clock } = hosted
  const url = server.url

  const call: Api['call'] = async (method, path, { body, headers, token } = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: {
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      /* not JSON: kept as text so the test can say so */
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
  const admin: Api['admin'] = (method, path, body) => call(method, `/api/v1/admin${path}`, { body, token: ADMIN_TOKEN })

  const setupProgram: Api['setupProgram'] = async (fields = {}) => {
    const n = ++sequence
    const account = await admin('POST', '/accounts', { email: `owner${n}-${Date.now()}@shop.test` })
    const program = await admin('POST', '/programs', {
      account_id: account.body.data.account_id,
      name: `Program ${n}`,
      domain: 'shop.test',
      commission_type: 'percent',
      commission_rate: 10,
      ...fields,
    })
    if (program.status !== 201) throw new Error(`setupProgram: ${JSON.stringify(program.body)}`)
    const programId = program.body.data.program_id
    const partner = await admin('POST', `/programs/${programId}/partners`, { name: `Partner ${n}` })
    const shortLink = `link${n}x${Math.random().toString(36).slice(2, 8)}`
    const link = await admin('POST', `/programs/${programId}/links`, { partner_id: partner.body.data.partner_id, short_link: shortLink })
    return {
      accountId: account.body.data.account_id,
      advertiserId: account.body.data.advertiser_id,
      programId,
      apiKey: program.body.data.api_key,
      partnerId: partner.body.data.partner_id,
      linkId: link.body.data.link_id,
      shortLink,
    }
  }

  return {
    url,
    port: server.port,
    clock,
    server,
    dir,
    call,
    admin,
    setupProgram,
    get errors() {
      return hosted.errors
    },
    get warnings() {
      return hosted.warnings
    },
    get announced() {
      return hosted.announced
    },
    async stop() {
      await hosted.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A platform-envelope error answer: the status, `data: null` and the message, exactly. */
export function expectFailure(reply: Reply, status: number, message: string): void {
  expect(reply.status).toBe(status)
  expect(reply.body.data).toBeNull()
  expect(reply.body.error.message).toBe(message)
}
