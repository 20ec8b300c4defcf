import { expect, test } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startApi } from '../helpers.ts'
import { cliSuite, startTap } from './harness.ts'
import { runCli, tempHome } from './run-cli.ts'
import { followLink } from '../http/pages/sessions.ts'
import { startReceiver } from '../outbox/receiver.ts'

const s = cliSuite()
const INIT_FLAGS = ['--name', 'Acme', '--domain', 'acme.test', '--commission-type', 'percent', '--commission-rate', '20']

test('init sends the four fields with the login token and prints the API key once with a warning', async () => {
  await s.loggedIn()
  const token = JSON.parse(await Bun.file(s.home.configFile).text()).token
  const r = await s.run(['init', ...INIT_FLAGS])
  expect(r.code).toBe(0)
  const sent = s.tap.seen.find((q) => q.path === '/api/v1/cli/init')!
  expect(sent.auth).toBe(`Bearer ${token}`)
  expect(JSON.parse(sent.body)).toEqual({ name: 'Acme', domain: 'acme.test', commission_type: 'percent', commission_rate: 20 })
  const programId = r.stdout.match(/Created program (\d+)\./)![1]
  const apiKey = r.stdout.match(/API key: (\S+)/)![1]
  expect(r.stderr).toContain('will not be shown again')
  // The printed key is the program's: status answers with it.
  const status = await s.run(['status', '--api-key', apiKey, '--json'])
  expect(JSON.parse(status.stdout).data.program_id).toBe(Number(programId))
})

test('init without a terminal and with flags missing is a usage error naming them', async () => {
  await s.loggedIn()
  const r = await s.run(['init', '--name', 'Acme'])
  expect(r.code).toBe(2)
  expect(r.stderr).toContain('--domain, --commission-type, --commission-rate')
  expect(s.tap.seen.some((q) => q.path === '/api/v1/cli/init')).toBe(false)
})

test('init rejects an unknown commission type or a non-positive rate before any request', async () => {
  await s.loggedIn()
  const badType = await s.run(['init', ...INIT_FLAGS.slice(0, 4), '--commission-type', 'bogus', '--commission-rate', '5'])
  expect(badType.code).toBe(2)
  expect(badType.stderr).toContain('Invalid commission_type: bogus. Valid: percent, fixed, recurring_percent, recurring_fixed')
  const badRate = await s.run(['init', ...INIT_FLAGS.slice(0, 6), '--commission-rate=-1'])
  expect(badRate.code).toBe(2)
  expect(badRate.stderr).toContain('commission_rate must be a positive number')
  expect(s.tap.seen.some((q) => q.path === '/api/v1/cli/init')).toBe(false)
})

test("init with a value the server refuses prints the server's message with exit 1", async () => {
  await s.loggedIn()
  const r = await s.run(['init', '--name', 'Acme', '--domain', 'not a domain', '--commission-type', 'percent', '--commission-rate', '20'])
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(/^svc: .*domain.*\(request_id: \S+\)/i)
})

test('init and programs before login are usage errors', async () => {
  for (const args of [['init', ...INIT_FLAGS], ['programs']]) {
    const r = await s.run(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Run `svc login` first')
  }
  expect(s.tap.seen.length).toBe(0)
})

test("a rejected login token prints the server's message and request id with exit 1", async () => {
  await s.loggedIn()
  await Bun.write(s.home.configFile, JSON.stringify({ base_url: s.tap.url, token: 'stale' }))
  const r = await s.run(['programs'])
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(/^svc: Invalid or expired token\. Run `svc login` to refresh\. \(request_id: \S+\)/)
})

test("programs prints a table of the account's programs only, and --json prints the raw answer", async () => {
  await s.loggedIn()
  await s.program('Elsewhere')
  await s.loggedIn()
  const { program_id } = await s.program('Acme')
  const r = await s.run(['programs'])
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/ID\s+NAME\s+DOMAIN\s+COMMISSION/)
  expect(r.stdout).toMatch(new RegExp(`${program_id}\\s+Acme\\s+acme\\.test\\s+percent 20`))
  expect(r.stdout).not.toContain('Elsewhere')
  const raw = await s.run(['programs', '--json'])
  expect(JSON.parse(raw.stdout)).toEqual({
    data: [expect.objectContaining({ program_id, name: 'Acme', domain: 'acme.test', commission_type: 'percent', commission_rate: 20 })],
    error: null,
  })
})

test('init --partner-signup opens the join page; programs shows who may join; a bad value is a usage error', async () => {
  await s.loggedIn()
  const r = await s.run([
    'init',
    '--name',
    'Joinable',
    '--domain',
    'join.test',
    '--commission-type',
    'percent',
    '--commission-rate',
    '10',
    '--partner-signup',
    'approval',
    '--no-save',
    '--json',
  ])
  expect(r.code).toBe(0)
  const { program_id } = JSON.parse(r.stdout).data
  expect((await fetch(`${s.api.url}/join/${program_id}`)).status).toBe(200)
  const list = await s.run(['programs'])
  expect(list.stdout).toMatch(/ID\s+NAME\s+DOMAIN\s+COMMISSION\s+JOIN/)
  expect(list.stdout).toMatch(new RegExp(`${program_id}\\s+Joinable\\s+join\\.test\\s+percent 10\\s+approval`))
  const bad = await s.run(['init', ...INIT_FLAGS, '--partner-signup', 'maybe', '--no-save'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('--partner-signup must be off, approval or open')
})

test('status uses the program key from --api-key or SVC_API_KEY and prints the counts', async () => {
  await s.loggedIn()
  const { program_id, api_key } = await s.program('Counted')
  const viaFlag = await s.run(['status', '--api-key', api_key])
  expect(viaFlag.code).toBe(0)
  expect(viaFlag.stdout).toContain('name: Counted')
  expect(viaFlag.stdout).toMatch(/clicks: 0/)
  const viaEnv = await s.run(['status', '--json'], { ...s.env, SVC_API_KEY: api_key })
  expect(JSON.parse(viaEnv.stdout).data.program_id).toBe(program_id)
  expect(s.tap.seen.filter((q) => q.path === '/api/v1/cli/status').every((q) => q.auth === `Bearer ${api_key}`)).toBe(true)
})

test("status without a key is a usage error; with a wrong key it fails with the server's 401 message", async () => {
  expect((await s.run(['status'])).code).toBe(2)
  const r = await s.run(['status', '--api-key', 'nope'])
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('svc: Invalid API key.')
})

test('a key due for rotation works with the warning on stderr; once retired, the typed 401 prints its code and exit 1', async () => {
  await s.loggedIn()
  const { program_id, api_key } = await s.program('Rotating')
  const rotateBy = new Date(s.api.clock.now() + 7 * 86_400_000).toISOString()
  expect((await s.api.admin('POST', `/programs/${program_id}/api-key/rotation`, { rotate_by: rotateBy })).status).toBeLessThan(300)
  const warned = await s.run(['status', '--api-key', api_key, '--json'])
  expect(warned.code).toBe(0)
  expect(JSON.parse(warned.stdout).data.program_id).toBe(program_id)
  expect(warned.stderr).toMatch(/^Warning: /m)
  s.api.clock.advance(8 * 86_400_000)
  const retired = await s.run(['status', '--api-key', api_key])
  expect(retired.code).toBe(1)
  expect(retired.stderr).toContain('svc: api_key_rotation_required')
})

test('a CLI 500 prints its message once, with the request id it already carries; --json prints the body', async () => {
  const api = await startApi()
  const tap = startTap(api.url)
  const home = tempHome()
  try {
    const program = await api.setupProgram()
    // Failure injection on the server's own database, no mock: the status query cannot run.
    api.server.deps.database.client.exec('ALTER TABLE daily_counts RENAME TO daily_counts_gone')
    const env = { ...home.env, SVC_BASE_URL: tap.url }
    const r = await runCli(['status', '--api-key', program.apiKey], env)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^svc: Failed to get status \(request_id: \S+\)\n$/)
    const json = await runCli(['status', '--api-key', program.apiKey, '--json'], env)
    expect(json.code).toBe(1)
    const body = JSON.parse(json.stdout)
    expect(body.error.message).toEndWith(`(request_id: ${body.error.details.request_id})`)
  } finally {
    home.cleanup()
    tap.stop()
    await api.stop()
  }
})

test('test sends event_type for single events and type chain for the chain (the default)', async () => {
  await s.loggedIn()
  const { api_key } = await s.program('Tested')
  for (const kind of ['click', 'lead', 'sale']) {
    const r = await s.run(['test', kind, '--api-key', api_key])
    expect({ kind, code: r.code, stderr: r.stderr }).toEqual({ kind, code: 0, stderr: '' })
    expect(r.stdout).toContain(`Test ${kind} sent:`)
  }
  const chain = await s.run(['test', '--api-key', api_key])
  expect(chain.code).toBe(0)
  expect(chain.stdout).toContain('Synthetic chain ran:')
  const bodies = s.tap.seen.filter((q) => q.path === '/api/v1/cli/test-event').map((q) => JSON.parse(q.body))
  expect(bodies).toEqual([{ event_type: 'click' }, { event_type: 'lead' }, { event_type: 'sale' }, { type: 'chain' }])
  // Test-mode records never mix into live counts.
  const status = JSON.parse((await s.run(['status', '--api-key', api_key, '--json'])).stdout).data
  expect(status.live.clicks).toBe(0)
  expect(status.test.clicks).toBeGreaterThan(0)
})

test('test with an unknown event type is a usage error and sends nothing', async () => {
  const r = await s.run(['test', 'refund', '--api-key', 'any'])
  expect(r.code).toBe(2)
  expect(r.stderr).toContain('Unknown test event: refund')
  expect(s.tap.seen.length).toBe(0)
})

test('a 429 is retried after Retry-After and then succeeds', async () => {
  // docs/api.md's own limit (60 a minute per key), not the suite's scaled one.
  const api = await startApi()
  const home = tempHome()
  try {
    const program = await api.setupProgram()
    for (let i = 0; i < 60; i++) expect((await api.call('GET', '/api/v1/cli/status', { token: program.apiKey })).status).toBe(200)
    // One second before the window ends, so the server asks for Retry-After: 1.
    api.clock.advance(59_000)
    const tap = startTap(api.url)
    const running = runCli(['status', '--api-key', program.apiKey], { ...home.env, SVC_BASE_URL: tap.url })
    // Time moves only once the server has refused the first try, however slowly the CLI starts.
    const until = Date.now() + 20_000
    while (!tap.answered.some((a) => a.status === 429) && Date.now() < until) await Bun.sleep(10)
    api.clock.advance(2_000)
    const r = await running
    tap.stop()
    expect(r.stderr).toContain('Rate limited; retrying in 1s')
    expect(r.code).toBe(0)
  } finally {
    home.cleanup()
    await api.stop()
  }
})

test('a 429 asking for longer than a minute is not waited for: the chain cap exits 1 with the wait', async () => {
  await s.loggedIn()
  const { api_key } = await s.program('Capped')
  for (let i = 0; i < 10; i++) expect((await s.run(['test', 'chain', '--api-key', api_key])).code).toBe(0)
  const started = Date.now()
  const r = await s.run(['test', 'chain', '--api-key', api_key])
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(/\(retry after \d{3,4}s\)/)
  expect(Date.now() - started).toBeLessThan(5_000)
})

test('unknown commands, unknown flags and flags of other commands are usage errors', async () => {
  const cases = [
    ['frobnicate'],
    ['status', '--bogus'],
    ['programs', '--name', 'x'],
    [],
    ['status', '--api-key', 'k', '--base-url', 'localhost:3000'],
  ]
  for (const args of cases) expect({ args, code: (await s.run(args)).code }).toEqual({ args, code: 2 })
  expect(s.tap.seen.length).toBe(0)
})

test('--help prints usage on stdout with exit 0', async () => {
  const r = await s.run(['--help'])
  expect(r.code).toBe(0)
  expect(r.stdout).toContain('Exit codes: 0 ok, 1 request failed, 2 usage error.')
})

test('init --save keeps the key for this server (0600): status and test use it, SVC_API_KEY and --api-key still win', async () => {
  await s.loggedIn()
  const r = await s.run(['init', ...INIT_FLAGS, '--save'])
  expect(r.code).toBe(0)
  const apiKey = r.stdout.match(/API key: (\S+)/)![1]
  const keys = join(s.home.dir, 'config', 'svc', 'keys.json')
  expect(r.stderr).toContain(`API key saved to ${keys}`)
  expect(statSync(keys).mode & 0o777).toBe(0o600)
  expect(JSON.parse(readFileSync(keys, 'utf8'))).toEqual({
    [s.tap.url]: { program_id: Number(r.stdout.match(/Created program (\d+)/)![1]), api_key: apiKey },
  })
  expect((await s.run(['status'])).code).toBe(0)
  expect((await s.run(['test', 'click'])).code).toBe(0)
  expect((await s.run(['status'], { ...s.env, SVC_API_KEY: 'from-env' })).code).toBe(1)
  const auths = s.tap.seen
    .filter((q) => q.path.startsWith('/api/v1/cli/status') || q.path.startsWith('/api/v1/cli/test-event'))
    .map((q) => q.auth)
  expect(auths).toEqual([`Bearer ${apiKey}`, `Bearer ${apiKey}`, 'Bearer from-env'])
  // Another server has no saved key.
  expect((await s.run(['status', '--base-url', 'http://127.0.0.1:1'])).code).toBe(2)
})

test('init without a terminal and without --save writes no key; --save with --no-save is a usage error', async () => {
  await s.loggedIn()
  expect((await s.run(['init', ...INIT_FLAGS])).code).toBe(0)
  expect(existsSync(join(s.home.dir, 'config', 'svc', 'keys.json'))).toBe(false)
  expect((await s.run(['init', ...INIT_FLAGS, '--save', '--no-save'])).code).toBe(2)
  expect((await s.run(['status'])).stderr).toContain('svc init --save')
})

test("--version prints the package version; <command> --help and help <command> print that command's help", async () => {
  const version = JSON.parse(readFileSync(join(import.meta.dir, '..', '..', 'package.json'), 'utf8')).version
  expect(await s.run(['--version'])).toEqual({ code: 0, stdout: `svc ${version}\n`, stderr: '' })
  const init = await s.run(['init', '--help'])
  expect(init.code).toBe(0)
  expect(init.stdout).toStartWith('Usage: svc init ')
  expect(init.stdout).toContain('--save')
  expect((await s.run(['help', 'status'])).stdout).toStartWith('Usage: svc status ')
  for (const command of ['login', 'logout', 'programs', 'test', 'stripe']) {
    expect((await s.run([command, '--help'])).stdout).toStartWith(`Usage: svc ${command}`)
  }
  expect(s.tap.seen.length).toBe(0)
})

test("the README's form runs this CLI from the repository: npm exec svc -- --version", async () => {
  const root = join(import.meta.dir, '..', '..')
  const proc = Bun.spawn(['npm', 'exec', '--offline', 'svc', '--', '--version'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect({ code, stdout }).toEqual({ code: 0, stdout: `svc ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n` })
})

test('an unreachable server is a failed request (exit 1)', async () => {
  const r = await s.run(['status', '--api-key', 'any', '--base-url', 'http://127.0.0.1:1'])
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('Could not reach http://127.0.0.1:1')
})

test("dashboard prints a one-time sign-in link that opens the account's dashboard once", async () => {
  await s.loggedIn()
  const r = await s.run(['dashboard'])
  expect(r.code).toBe(0)
  const url = r.stdout.match(/(\S+\/sign-in\/[A-Za-z0-9_-]+)/)![1]
  const opened = await followLink(s.api, url)
  expect(opened.status).toBe(303)
  expect(opened.headers.get('location')).toBe('/dashboard')
  expect((await followLink(s.api, url)).status).toBe(410)
  const before = await s.run(['dashboard', 'extra'])
  expect(before.code).toBe(2)
})

test('webhooks add, list, test and deliveries with the program key; the secret is printed once', async () => {
  const receiver = await startReceiver()
  try {
    await s.loggedIn()
    const { api_key } = await s.program('Hooked')
    const key = ['--api-key', api_key]
    const added = await s.run(['webhooks', 'add', '--url', receiver.url, '--events', 'webhook.test,sale.created', ...key, '--json'])
    expect(added.code).toBe(0)
    const { webhook_id, secret, events } = JSON.parse(added.stdout).data
    expect(secret).toMatch(/^whsec_/)
    expect(events).toEqual(['webhook.test', 'sale.created'])
    const list = await s.run(['webhooks', 'list', ...key])
    expect(list.stdout).toMatch(new RegExp(`${webhook_id}\\s+${receiver.url.replaceAll('.', '\\.')}\\s+yes`))
    expect(list.stdout).not.toContain(secret)
    const tested = await s.run(['webhooks', 'test', String(webhook_id), ...key])
    expect(tested.code).toBe(0)
    expect(tested.stdout).toContain('delivered')
    expect(receiver.verify(receiver.hits[0]!, secret)).toMatchObject({ type: 'webhook.test' })
    const deliveries = await s.run(['webhooks', 'deliveries', String(webhook_id), ...key])
    expect(deliveries.stdout).toMatch(/webhook\.test\s+delivered\s+1\s+200/)
    expect((await s.run(['webhooks', 'test', 'abc', ...key])).code).toBe(2)
    expect((await s.run(['webhooks', 'test', '999999', ...key])).code).toBe(1)
  } finally {
    await receiver.close()
  }
})

test('review list, approve and reject the commissions held for review, with the program key', async () => {
  await s.loggedIn()
  const { program_id, api_key } = await s.program('Reviewed')
  const key = ['--api-key', api_key]
  const partner = (await s.api.admin('POST', `/programs/${program_id}/partners`, { name: 'Ada Ads' })).body.data.partner_id
  const shortLink = `ads${Date.now()}`
  await s.api.admin('POST', `/programs/${program_id}/links`, { partner_id: partner, short_link: shortLink })
  const held: number[] = []
  for (const n of [1, 2]) {
    const click = await s.api.call('POST', '/api/v1/track/click', {
      body: { affiliate_url: `https://acme.test/?aff=${shortLink}&fbclid=${n}` },
    })
    const customer = `ad-customer-${n}`
    await s.api.call('POST', '/api/v1/track/lead', { body: { click_id: click.body.click_id, customer_key: customer }, token: api_key })
    await s.api.call('POST', '/api/v1/track/sale', {
      body: { transaction_id: `ad-${Date.now()}-${n}`, customer_key: customer, amount_cents: 5000 },
      token: api_key,
    })
    held.push((await s.api.admin('GET', `/programs/${program_id}/commissions?limit=1`)).body.data[0].commission_id)
  }
  const list = await s.run(['review', 'list', ...key])
  expect(list.code).toBe(0)
  expect(list.stdout).toMatch(new RegExp(`${held[0]}\\s+Ada Ads\\s+10\\.00 USD\\s+ad-\\S+\\s+paid_ads`))
  expect(list.stdout).toContain('The click came from a paid ad')
  const approved = await s.run(['review', 'approve', String(held[0]), ...key, '--json'])
  expect(JSON.parse(approved.stdout).data).toMatchObject({ commission_id: held[0], status: 'pending', review: 'approved' })
  const rejected = await s.run(['review', 'reject', String(held[1]), '--reason', 'Brand bidding', ...key, '--json'])
  expect(JSON.parse(rejected.stdout).data).toMatchObject({ status: 'reversed', review_reason: 'Brand bidding' })
  expect((await s.run(['review', 'list', ...key])).stdout).toContain('No commission is held for review.')
  const again = await s.run(['review', 'approve', String(held[0]), ...key])
  expect(again.code).toBe(1)
  expect(again.stderr).toContain('Commission is not held for review')
  expect((await s.run(['review', 'approve', 'abc', ...key])).code).toBe(2)
  expect((await s.run(['review', 'approve', String(held[0]), '--reason', 'x', ...key])).code).toBe(2)
  // Another program's key sees none of these commissions.
  const other = await s.program('Other')
  expect((await s.run(['review', 'reject', String(held[0]), '--api-key', other.api_key])).stderr).toContain('Commission not found')
})
