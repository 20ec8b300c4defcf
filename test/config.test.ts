import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../src/config.ts'

describe('configuration (README, Configuration)', () => {
  test('defaults match the environment table', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databasePath: './data/svc.db',
      adminToken: null,
      secret: null,
      trustProxy: false,
      publicBaseUrl: 'http://localhost:3000',
      stripeConnectWebhookSecret: null,
      docsUrl: 'http://localhost:3000/docs',
    })
  })

  test('email: SMTP_URL is off unless set; MAIL_FROM defaults to svc at the public host', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: null, mailFrom: 'svc <svc@localhost>' })
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.test:465', MAIL_FROM: 'Shop <p@shop.test>' })).toMatchObject({
      smtpUrl: 'smtps://u:p@mail.test:465',
      mailFrom: 'Shop <p@shop.test>',
    })
  })

  test('DOCS_URL follows PUBLIC_BASE_URL unless set', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://t.shop.test/' }).docsUrl).toBe('https://t.shop.test/docs')
    expect(loadConfig({ DOCS_URL: 'https://docs.shop.test' }).docsUrl).toBe('https://docs.shop.test')
    // Used as given: {docs_url}#api_key_rotation_required keeps a trailing slash.
    expect(loadConfig({ DOCS_URL: 'https://docs.shop.test/ref/' }).docsUrl).toBe('https://docs.shop.test/ref/')
  })

  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be false, true or fly, got "maybe"'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL must be an http(s) URL, got "ftp://x"'],
    [{ SMTP_URL: 'http://user:secret@mail.test' }, 'SMTP_URL must be an smtp:// or smtps:// URL, got "http://…@mail.test"'],
  ])('%j is refused at start with "%s"', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  test('a short admin token or secret is taken as given, with a warning at start (no length is part of the contract)', () => {
    expect(loadConfig({ SVC_ADMIN_TOKEN: 'adm', SVC_SECRET: 'short' })).toMatchObject({
      adminToken: 'adm',
      secret: 'short',
      warnings: [
        'SVC_ADMIN_TOKEN is shorter than 16 characters: a longer random value is advised',
        'SVC_SECRET is shorter than 32 characters: a longer random value is advised',
      ],
    })
    expect(loadConfig({ SVC_ADMIN_TOKEN: 'a'.repeat(16), SVC_SECRET: 's'.repeat(32) }).warnings).toEqual([])
  })

  test('a bad value stops `npm start` with a clear message and exit code 2', () => {
    const run = Bun.spawnSync([process.execPath, 'src/main.ts'], { env: { ...process.env, PORT: 'nope' }, stderr: 'pipe' })
    expect(run.exitCode).toBe(2)
    expect(run.stderr.toString()).toContain('svc: configuration error: PORT must be a whole number')
  })

  test('a database path that cannot be made, a bad bind address or a taken port stop start the same way, naming the setting', () => {
    const taken = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const cases: [Record<string, string>, string][] = [
        [
          { DATABASE_PATH: '/proc/svc-nowhere/svc.db' },
          'svc: configuration error: DATABASE_PATH "/proc/svc-nowhere/svc.db" cannot be opened',
        ],
        [{ HOST: '999.1.1.1', PORT: '0' }, 'svc: configuration error: cannot listen on HOST "999.1.1.1" PORT 0'],
        [{ HOST: '127.0.0.1', PORT: String(taken.port) }, `svc: configuration error: cannot listen on HOST "127.0.0.1" PORT ${taken.port}`],
      ]
      for (const [env, message] of cases) {
        const dir = mkdtempSync(join(tmpdir(), 'svc-start-'))
        const run = Bun.spawnSync([process.execPath, 'src/main.ts'], {
          env: { ...process.env, DATABASE_PATH: join(dir, 'svc.db'), ...env },
          stderr: 'pipe',
          timeout: 20_000,
        })
        rmSync(dir, { recursive: true, force: true })
        expect({ env, code: run.exitCode, stderr: run.stderr.toString().split('\n')[0] }).toEqual({
          env,
          code: 2,
          stderr: expect.stringContaining(message),
        })
      }
    } finally {
      taken.stop(true)
    }
  })
})

test('`npm start` with a short SVC_ADMIN_TOKEN serves the operator API with it and warns once on stderr', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-start-'))
  const child = Bun.spawn([process.execPath, 'src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_PATH: join(dir, 'svc.db'),
      HOST: '127.0.0.1',
      PORT: '0',
      SVC_ADMIN_TOKEN: 'adm-xyz',
      SVC_LOG_REQUESTS: 'false',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const reader = child.stdout.getReader()
    let out = ''
    while (!out.includes('"url"')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`svc did not start: ${out}`)
      out += new TextDecoder().decode(value)
    }
    const url = JSON.parse(out.split('\n').find((line) => line.includes('"url"'))!).url
    const made = await fetch(`${url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: 'Bearer adm-xyz', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'short-token@shop.test' }),
    })
    expect(made.status).toBe(201)
  } finally {
    child.kill('SIGTERM')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
  const warnings = (await new Response(child.stderr).text()).split('\n').filter((line) => line.includes('"warn"'))
  expect(warnings).toEqual([
    JSON.stringify({ level: 'warn', msg: 'SVC_ADMIN_TOKEN is shorter than 16 characters: a longer random value is advised' }),
  ])
})
