import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'bun:test'
import type { Api } from '../helpers.ts'
import { idToken, newAccount, startCliApi } from '../http/cli/fixtures.ts'
import { runCli, tempHome, type CliResult } from './run-cli.ts'

/** What the program sent, as the tap saw it on its way to the real server. */
export type Seen = { method: string; path: string; auth: string | null; headers: Headers; body: string }

/** `answered` holds the real server's status for each forwarded request, in the order answered. */
export type Tap = { url: string; seen: Seen[]; answered: { path: string; status: number }[]; stop(): void }

/**
 * A recording pass-through in front of the real server: every request the program makes is
 * written down (method, path with query, headers, exact body) and forwarded unchanged; the
 * real server's answer goes back unchanged. Nothing is answered by the tap itself.
 */
export function startTap(target: string): Tap {
  const seen: Seen[] = []
  const answered: Tap['answered'] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const body = await request.text()
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        auth: request.headers.get('authorization'),
        headers: request.headers,
        body,
      })
      const headers = new Headers(request.headers)
      headers.delete('host')
      headers.delete('content-length')
      const answer = await fetch(target + url.pathname + url.search, {
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : body,
      })
      const bytes = await answer.arrayBuffer()
      answered.push({ path: url.pathname + url.search, status: answer.status })
      return new Response(bytes, { status: answer.status, headers: answer.headers })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, seen, answered, stop: () => server.stop(true) }
}

export const CONNECT_SECRET = 'whsec_cli_connect_test'

/**
 * One real server and tap for a test file, a fresh config home for each test (HOME and
 * XDG_CONFIG_HOME in a temp folder, SVC_BASE_URL at the tap), and the steps most tests start with.
 */
export interface CliSuite {
  api: Api
  tap: Tap
  home: ReturnType<typeof tempHome>
  env: Record<string, string>
  run(args: string[], env?: Record<string, string>, stdin?: string): Promise<CliResult>
  /** A new account through the operator API. */
  account(): Promise<number>
  /** An id_token for the account, as the operator API issues it (signed by the server). */
  idToken(accountId: number): Promise<string>
  loggedIn(): Promise<number>
  program(name?: string): Promise<{ program_id: number; api_key: string }>
}

export function cliSuite(): CliSuite {
  const s: CliSuite = {
    api: undefined as unknown as Api,
    tap: undefined as unknown as Tap,
    home: undefined as unknown as ReturnType<typeof tempHome>,
    env: {} as Record<string, string>,
    run: (args: string[], env: Record<string, string> = s.env, stdin?: string): Promise<CliResult> => runCli(args, env, stdin),

    account: async () => (await newAccount(s.api)).accountId,
    idToken: (accountId) => idToken(s.api, accountId),

    /** A new account logged in through `svc login --id-token` in this test's home. */
    async loggedIn(): Promise<number> {
      const accountId = await s.account()
      const login = await s.run(['login', '--id-token', await s.idToken(accountId)])
      expect({ code: login.code, stderr: login.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
      return accountId
    },

    /** A program made by `svc init --json` for the logged-in account. */
    async program(name = 'Acme'): Promise<{ program_id: number; api_key: string }> {
      const r = await s.run([
        'init',
        '--name',
        name,
        '--domain',
        'acme.test',
        '--commission-type',
        'percent',
        '--commission-rate',
        '20',
        '--json',
      ])
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
      return JSON.parse(r.stdout).data
    },
  }
  beforeAll(async () => {
    s.api = await startCliApi({ STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET, WEBHOOKS_ALLOW_PRIVATE: 'true' })
    s.tap = startTap(s.api.url)
  })
  afterAll(async () => {
    s.tap?.stop()
    await s.api?.stop()
  })
  beforeEach(() => {
    s.home = tempHome()
    s.env = { ...s.home.env, SVC_BASE_URL: s.tap.url }
    s.tap.seen.length = 0
  })
  afterEach(() => s.home.cleanup())
  return s
}

/** Resolves when the tap has seen a request whose path starts with `prefix` (bounded wait). */
export async function seenRequest(tap: Tap, prefix: string, timeoutMs = 10_000): Promise<Seen> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const found = tap.seen.find((r) => r.path.startsWith(prefix))
    if (found) return found
    if (Date.now() > until) throw new Error(`no request to ${prefix} within ${timeoutMs} ms`)
    await Bun.sleep(10)
  }
}
