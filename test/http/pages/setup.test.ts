// docs/decisions.md, First run: `/` leads somewhere, /setup exists only while no account does, and
// the code the server printed at start creates the owner's account and first program, shows the
// key once and signs the owner in.
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Api, startApi } from '../../helpers.ts'

let api: Api | null = null
afterEach(async () => {
  await api?.stop()
  api = null
})

const LINE = /^svc: first run: open (\S+)\/setup and enter the setup code (\S+)$/

function codeOf(server: Api): string {
  const line = server.announced.find((l) => l.startsWith('svc: first run'))
  expect(line).toBeDefined()
  const match = line!.match(LINE)
  expect(match).not.toBeNull()
  expect(match![1]).toBe(server.server.deps.config.publicBaseUrl)
  return match![2]!
}

async function post(path: string, fields: Record<string, string>, options: { json?: boolean; cookie?: string } = {}) {
  const reply = await fetch(api!.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  })
  return { status: reply.status, headers: reply.headers, text: await reply.text() }
}

const get = (path: string, cookie?: string) => fetch(api!.url + path, { redirect: 'manual', headers: cookie ? { cookie } : {} })

const fields = (code: string) => ({
  code,
  email: 'founder@shop.test',
  name: 'Fay Founder',
  program_name: 'Shop Partners',
  domain: 'shop.test',
  commission_type: 'recurring_percent',
  commission_rate: '25',
})

const accounts = () => (api!.server.deps.database.client.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n

test('a fresh server prints the setup line with a code of at least 40 bits; / leads to /setup', async () => {
  api = await startApi()
  const code = codeOf(api)
  // 12 characters of 31 (59 bits), in groups of four.
  expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
  const root = await get('/')
  expect(root.status).toBe(303)
  expect(root.headers.get('location')).toBe('/setup')
  const form = await get('/setup')
  expect(form.status).toBe(200)
  const html = await form.text()
  for (const name of ['code', 'email', 'name', 'program_name', 'domain', 'commission_type', 'commission_rate'])
    expect(html).toContain(`name="${name}"`)
})

test('the right code creates the account and program, shows the key once and signs in; /setup is gone after', async () => {
  api = await startApi({ env: { SVC_ADMIN_TOKEN: '' } })
  const done = await post('/setup', fields(codeOf(api).toLowerCase()))
  expect(done.status).toBe(200)
  const key = done.text.match(/value="(svc_[^"]+)"/)?.[1] ?? done.text.match(/id="api-key"[^>]*value="([^"]+)"/)?.[1]
  expect(key).toBeDefined()
  const cookie = done.headers.get('set-cookie')!.split(';')[0]!
  expect(cookie).toMatch(/^svc_session=/)
  // The key is the program's: readiness answers for it.
  const ready = await fetch(`${api.url}/api/v1/programs/me/readiness`, { headers: { authorization: `Bearer ${key}` } })
  expect(ready.status).toBe(200)
  const program = ((await ready.json()) as any).data.program_id
  const dashboard = await get(`/dashboard/programs/${program}`, cookie)
  expect(dashboard.status).toBe(200)
  expect(await dashboard.text()).toContain('Shop Partners')
  expect((await get('/', cookie)).headers.get('location')).toBe('/dashboard')
  expect((await get('/')).headers.get('location')).toBe('/sign-in')
  expect((await get('/setup')).status).toBe(404)
  expect((await post('/setup', fields('whatever'))).status).toBe(404)
  expect(accounts()).toBe(1)
})

test('JSON posts answer in the platform envelope: 201 with the ids and key', async () => {
  api = await startApi()
  const done = await post('/setup', fields(codeOf(api)), { json: true })
  expect(done.status).toBe(201)
  const body = JSON.parse(done.text)
  expect(body).toEqual({ data: { account_id: 1, program_id: 1, api_key: expect.stringMatching(/\S{20,}/) }, error: null })
  const programs = await api.admin('GET', '/programs')
  expect(programs.body.data[0]).toMatchObject({
    name: 'Shop Partners',
    domain: 'shop.test',
    commission_type: 'recurring_percent',
    commission_rate: 25,
  })
})

test('a wrong code is 403 and creates nothing; after 10 wrong codes an hour the address gets 429, the right code too', async () => {
  api = await startApi()
  const code = codeOf(api)
  for (let i = 0; i < 10; i++) {
    const wrong = await post('/setup', fields(`WRONG-CODE-${i}`))
    expect(wrong.status).toBe(403)
    expect(wrong.text).toContain('not the setup code')
  }
  const json = await post('/setup', fields('nope'), { json: true })
  expect(json.status).toBe(429)
  expect(JSON.parse(json.text).error.status).toBe(429)
  const locked = await post('/setup', fields(code))
  expect(locked.status).toBe(429)
  expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(accounts()).toBe(0)
  api.clock.advance(3_600_000)
  expect((await post('/setup', fields(code))).status).toBe(200)
})

test('a refused field answers 400 naming it and creates nothing', async () => {
  api = await startApi()
  const code = codeOf(api)
  const cases: [Record<string, string>, string][] = [
    [{ email: 'not-an-email' }, 'email must be an email address'],
    [{ domain: 'not a domain' }, 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901'],
    [{ program_name: '' }, 'program_name must be a non-empty text of at most 200 characters'],
    [
      { commission_type: 'percent', commission_rate: '120' },
      'commission_rate must be at most 100 for the percent and recurring_percent types',
    ],
    [{ commission_type: 'bonus' }, 'commission_type must be one of: percent, fixed, recurring_percent, recurring_fixed'],
  ]
  for (const [change, message] of cases) {
    const reply = await post('/setup', { ...fields(code), ...change }, { json: true })
    expect(reply.status).toBe(400)
    expect(JSON.parse(reply.text).error.message).toBe(message)
    const page = await post('/setup', { ...fields(code), ...change })
    expect(page.status).toBe(400)
    expect(page.text).toContain(message.replaceAll("'", '&#39;'))
  }
  expect(accounts()).toBe(0)
})

test('each start without an account prints a fresh code; a start with one prints nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-setup-'))
  const env = { DATABASE_PATH: join(dir, 'svc.db') }
  api = await startApi({ env })
  const first = codeOf(api)
  await api.stop()
  api = await startApi({ env })
  const second = codeOf(api)
  expect(second).not.toBe(first)
  expect((await post('/setup', fields(second))).status).toBe(200)
  await api.stop()
  api = await startApi({ env })
  expect(api.announced).toEqual([])
  expect((await get('/setup')).status).toBe(404)
})
