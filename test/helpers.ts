import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ManualClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { bunRuntime } from '../src/runtime/bun'
import { startServer, type Started } from '../src/server'
import { trackerSource } from '../src/tracker-source'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'
export const DAY = 86_400_000
export const days = (n: number) => n * DAY
export const minutes = (n: number) => n * 60_000

export interface Api {
  url: string
  port: number
  clock: ManualClock
  server: Started
  dir: string
  /** Error lines the server logged (unexpected failures); tests that inject a failure read them. */
  errors: Record<string, unknown>[]
  /** Calls the real server; `body` objects are sent as JSON. */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; token?: string }): Promise<Reply>
  /** Calls the operator API with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Reply>
  /** Creates an account, a program, a partner and an active link through the operator API. */
  setupProgram(fields?: Record<string, unknown>): Promise<Fixture>
  stop(): Promise<void>
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

/** Starts the real server on port 0 over a fresh SQLite file in a temp dir, with a manual clock. */
export async function startApi(options: { env?: Record<string, string> } = {}): Promise<Api> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'))
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'svc.db'),
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    SVC_LOG_REQUESTS: 'false',
    ...options.env,
  })
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'))
  const errors: Record<string, unknown>[] = []
  const server = startServer({ config, clock, runtime: bunRuntime, trackerSource, log: (line) => line.level === 'error' && errors.push(line) })
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
    } catch { /* not JSON: kept as text so the test can say so */ }
    return { status: response.status, headers: response.headers, body: parsed }
  }
  const admin: Api['admin'] = (method, path, body) => call(method, `/api/v1/admin${path}`, { body, token: ADMIN_TOKEN })

  const setupProgram: Api['setupProgram'] = async (fields = {}) => {
    const n = ++sequence
    const account = await admin('POST', '/accounts', { email: `owner${n}-${Date.now()}@shop.test` })
    const program = await admin('POST', '/programs', {
      account_id: account.body.data.account_id, name: `Program ${n}`, domain: 'shop.test',
      commission_type: 'percent', commission_rate: 10, ...fields,
    })
    if (program.status !== 201) throw new Error(`setupProgram: ${JSON.stringify(program.body)}`)
    const programId = program.body.data.program_id
    const partner = await admin('POST', `/programs/${programId}/partners`, { name: `Partner ${n}` })
    const shortLink = `link${n}x${Math.random().toString(36).slice(2, 8)}`
    const link = await admin('POST', `/programs/${programId}/links`, { partner_id: partner.body.data.partner_id, short_link: shortLink })
    return {
      accountId: account.body.data.account_id, advertiserId: account.body.data.advertiser_id, programId,
      apiKey: program.body.data.api_key, partnerId: partner.body.data.partner_id, linkId: link.body.data.link_id, shortLink,
    }
  }

  return {
    url, port: server.port, clock, server, dir, errors, call, admin, setupProgram,
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
