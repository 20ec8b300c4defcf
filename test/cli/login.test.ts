import { expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { cliSuite, seenRequest } from './harness.ts'
import { runCli } from './run-cli.ts'

const s = cliSuite()
const config = () => JSON.parse(readFileSync(s.home.configFile, 'utf8'))

test('login prints the login URL, polls until the browser sign-in completes and saves the token with mode 0600', async () => {
  const accountId = await s.account()
  const running = s.run(['login'])
  // The browser's part: the sign-in page posts the id_token to the callback for the session's state.
  const firstPoll = await seenRequest(s.tap, '/api/v1/cli/auth/poll?state=')
  const state = new URL(firstPoll.path, 'http://x').searchParams.get('state')!
  const callback = await s.api.call('POST', '/api/v1/cli/auth/callback', { body: { state, id_token: await s.idToken(accountId) } })
  expect(callback.status).toBe(200)
  const r = await running
  expect(r.code).toBe(0)
  expect(r.stdout).toContain(`${s.api.server.deps.config.publicBaseUrl}/cli/login?state=${encodeURIComponent(state)}`)
  expect(r.stdout).toContain('Logged in')
  expect(s.tap.seen.filter((q) => q.path.startsWith('/api/v1/cli/auth/poll?state=')).length).toBeGreaterThanOrEqual(2)
  expect(config()).toEqual({ base_url: s.tap.url, token: expect.stringMatching(/\S{20,}/) })
  expect(statSync(s.home.configFile).mode & 0o777).toBe(0o600)
  // The saved token is the one the server issued: it lists the account's programs.
  expect((await s.run(['programs'])).code).toBe(0)
})

test('login uses ~/.config when XDG_CONFIG_HOME is unset', async () => {
  const r = await runCli(['login', '--id-token', await s.idToken(await s.account())], { HOME: s.home.dir, SVC_BASE_URL: s.tap.url })
  expect(r.code).toBe(0)
  expect(existsSync(`${s.home.dir}/.config/svc/config.json`)).toBe(true)
})

test('login tightens an existing config file that was world-readable', async () => {
  mkdirSync(dirname(s.home.configFile), { recursive: true })
  writeFileSync(s.home.configFile, '{}', { mode: 0o644 })
  await s.loggedIn()
  expect(statSync(s.home.configFile).mode & 0o777).toBe(0o600)
})

test('login --id-token posts state and id_token to the callback, then polls, and prints no login URL', async () => {
  const idToken = await s.idToken(await s.account())
  const r = await s.run(['login', '--id-token', idToken])
  expect(r.code).toBe(0)
  const callback = s.tap.seen.find((q) => q.path === '/api/v1/cli/auth/callback')!
  const sent = JSON.parse(callback.body)
  expect(sent.id_token).toBe(idToken)
  expect(s.tap.seen.some((q) => q.path === `/api/v1/cli/auth/poll?state=${encodeURIComponent(sent.state)}`)).toBe(true)
  expect(r.stdout).not.toContain('/cli/login?state=')
})

test('login --json prints one JSON document and never the token', async () => {
  const r = await s.run(['login', '--id-token', await s.idToken(await s.account()), '--json'])
  expect(r.code).toBe(0)
  expect(JSON.parse(r.stdout)).toEqual({ data: { status: 'complete', config_path: s.home.configFile }, error: null })
  expect(r.stdout + r.stderr).not.toContain(config().token)
})

test("a suspended account's login fails with exit 1, the server's message and request id, and saves nothing", async () => {
  const accountId = await s.account()
  await s.api.admin('POST', `/accounts/${accountId}/suspend`)
  const r = await s.run(['login', '--id-token', await s.idToken(accountId)])
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(/Your account has been suspended\.[^\n]*\(request_id: \S+\)/)
  expect(existsSync(s.home.configFile)).toBe(false)
})

test('a tampered id_token fails with exit 1 and saves nothing', async () => {
  const idToken = await s.idToken(await s.account())
  const r = await s.run(['login', '--id-token', `${idToken.slice(0, -4)}AAAA`])
  expect(r.code).toBe(1)
  expect(existsSync(s.home.configFile)).toBe(false)
})

test('an expired login session fails with exit 1 and saves nothing', async () => {
  const running = s.run(['login'])
  await seenRequest(s.tap, '/api/v1/cli/auth/poll?state=')
  // Sessions live 5 minutes on the server's (injected) clock.
  s.api.clock.advance(6 * 60_000)
  const r = await running
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('expired')
  expect(existsSync(s.home.configFile)).toBe(false)
})

test('--base-url beats SVC_BASE_URL, and login remembers it for later commands', async () => {
  const idToken = await s.idToken(await s.account())
  const r = await s.run(['login', '--id-token', idToken, '--base-url', s.tap.url], { ...s.env, SVC_BASE_URL: 'http://127.0.0.1:1' })
  expect(r.code).toBe(0)
  await s.program('Remembered')
  const programs = await runCli(['programs'], s.home.env)
  expect(programs.code).toBe(0)
  expect(programs.stdout).toContain('Remembered')
})

test('logout removes the token and is a no-op when already logged out', async () => {
  await s.loggedIn()
  const first = await s.run(['logout'])
  expect(first.code).toBe(0)
  expect(first.stdout).toContain('Logged out.')
  expect(config().token).toBeUndefined()
  const second = await s.run(['logout'])
  expect(second.code).toBe(0)
  expect(second.stdout).toContain('Not logged in')
})

test('the saved login token is sent only to the server that issued it, never to another base URL', async () => {
  await s.loggedIn()
  const seen: (string | null)[] = []
  const elsewhere = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      seen.push(request.headers.get('authorization'))
      return Response.json({ data: [], error: null })
    },
  })
  try {
    const other = `http://127.0.0.1:${elsewhere.port}`
    for (const env of [{ ...s.env, SVC_BASE_URL: other }, s.env]) {
      const args = env === s.env ? ['programs', '--base-url', other] : ['programs']
      const r = await s.run(args, env)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('Not logged in')
    }
    expect(seen).toEqual([])
    // The issuing server still gets it, with or without a trailing slash on its URL.
    expect((await s.run(['programs', '--base-url', `${s.tap.url}/`])).code).toBe(0)
  } finally {
    elsewhere.stop(true)
  }
})
