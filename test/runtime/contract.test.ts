// One contract suite, run against the in-process Bun server, the compiled binary and Deno
// (README, Development): the same answers, to the letter, whatever hosts the app.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN, startApi } from '../helpers.ts'
import { startReceiver } from '../outbox/receiver.ts'
import { serverBuild, spawnServer } from './spawn.ts'

const root = join(import.meta.dir, '../..')
const deno = join(root, 'node_modules/.bin/deno')

/** Webhooks to the receiver on 127.0.0.1. */
const hooks = { WEBHOOKS_ALLOW_PRIVATE: 'true' }

interface Target {
  url: string
  stop(): Promise<unknown>
}

const targets: [string, boolean, (dir: string) => Promise<Target>][] = [
  ['bun (in process)', true, async () => startApi({ env: hooks })],
  [
    'the compiled binary',
    true,
    async (dir) => {
      const binary = join(dir, 'svc-server')
      // As `npm run build:server` builds it: bytecode, split in chunks loaded when first needed, and
      // the webhook delivery worker a second entry point.
      const build = Bun.spawnSync([process.execPath, ...serverBuild(root, binary)], { cwd: root, stderr: 'pipe' })
      if (build.exitCode !== 0) throw new Error(build.stderr.toString())
      return spawnServer([binary], { DATABASE_PATH: join(dir, 'bin.db'), ...hooks })
    },
  ],
  [
    'deno',
    existsSync(deno),
    async (dir) =>
      spawnServer([deno, 'run', '--node-modules-dir=manual', '-A', 'src/main-deno.ts'], { DATABASE_PATH: join(dir, 'deno.db'), ...hooks }),
  ],
]

for (const [name, available, start] of targets) {
  describe.skipIf(!available)(`the HTTP contract on ${name}`, () => {
    let dir: string
    let target: Target
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const response = await fetch(target.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) }
    }
    const admin = (method: string, path: string, body?: unknown) => call(method, `/api/v1/admin${path}`, body, ADMIN_TOKEN)
    let apiKey: string
    let shortLink: string

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-contract-'))
      target = await start(dir)
      const account = await admin('POST', '/accounts', { email: 'contract@shop.test' })
      const program = await admin('POST', '/programs', {
        account_id: account.body.data.account_id,
        name: 'Contract',
        domain: 'shop.test',
        commission_type: 'percent',
        commission_rate: 10,
      })
      apiKey = program.body.data.api_key
      const programId = program.body.data.program_id
      const partner = await admin('POST', `/programs/${programId}/partners`, { name: 'Ada' })
      shortLink = `contract-${Date.now()}`
      await admin('POST', `/programs/${programId}/links`, { partner_id: partner.body.data.partner_id, short_link: shortLink })
    }, 60_000)
    afterAll(async () => {
      await target?.stop()
      rmSync(dir, { recursive: true, force: true })
    })

    test('click → lead → sale → duplicate → refund answers as docs/api.md and docs/decisions.md say', async () => {
      const click = await call('POST', '/api/v1/track/click', { affiliate_url: `https://shop.test/?aff=${shortLink}` })
      expect(click.status).toBe(200)
      expect(click.body).toEqual({ success: true, click_id: expect.any(String), cookie_window_days: 60 })
      expect(click.headers.get('x-ratelimit-limit')).toBe('60')
      expect(click.headers.get('x-request-id')).toBeTruthy()
      const lead = await call('POST', '/api/v1/track/lead', { click_id: click.body.click_id, customer_key: 'cust-1' }, apiKey)
      expect(lead.status).toBe(200)
      expect(lead.body.data.status).toBe('lead')
      const sale = await call(
        'POST',
        '/api/v1/track/sale',
        { transaction_id: `txn-${name}`, amount_cents: 12_345, customer_key: 'cust-1' },
        apiKey,
      )
      expect(sale.status).toBe(200)
      expect(sale.body.data).toMatchObject({
        transaction_id: `txn-${name}`,
        amount_cents: 12_345,
        currency: 'USD',
        commission: { amount_cents: 1235 },
      })
      const again = await call(
        'POST',
        '/api/v1/track/sale',
        { transaction_id: `txn-${name}`, amount_cents: 12_345, customer_key: 'cust-1' },
        apiKey,
      )
      expect(again.status).toBe(409)
      expect(again.body.error).toMatchObject({
        status: 409,
        name: 'ConflictError',
        code: 'duplicate_transaction',
        details: { sale_id: sale.body.data.sale_id },
      })
      const refund = await call('POST', '/api/v1/track/refund', { transaction_id: `txn-${name}` }, apiKey)
      expect(refund.body).toEqual({
        data: { sale_id: sale.body.data.sale_id, transaction_id: `txn-${name}`, status: 'refunded' },
        error: null,
      })
    })

    test('a webhook test delivery is signed and delivered from the delivery worker', async () => {
      const receiver = await startReceiver()
      try {
        const account = await admin('POST', '/accounts', { email: `hooks-${Date.now()}@shop.test` })
        const program = await admin('POST', '/programs', {
          account_id: account.body.data.account_id,
          name: 'Hooks',
          domain: 'shop.test',
          commission_type: 'percent',
          commission_rate: 10,
        })
        const hook = await admin('POST', `/programs/${program.body.data.program_id}/webhooks`, { url: receiver.url })
        const tested = await admin('POST', `/webhooks/${hook.body.data.webhook_id}/test`)
        expect(tested.body.data).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1, last_status_code: 200 })
        expect(receiver.verify(receiver.hits[0]!, hook.body.data.secret)).toMatchObject({ type: 'webhook.test' })
      } finally {
        await receiver.close()
      }
    })

    test('errors keep their envelopes: 401 with code on sale, typed invalid_key on readiness, 404 for unknown routes', async () => {
      const sale = await call('POST', '/api/v1/track/sale', { transaction_id: 'x', amount_cents: 1 })
      expect(sale.body).toEqual({
        data: null,
        error: {
          status: 401,
          name: 'UnauthorizedError',
          message: 'Missing or malformed Authorization header. Expected: Bearer <token>',
          details: {},
          code: 'unauthorized',
        },
      })
      const readiness = await call('GET', '/api/v1/programs/me/readiness', undefined, 'nope')
      expect(readiness.body).toEqual({ error: { code: 'invalid_key', message: 'Invalid API token.' } })
      expect((await call('GET', '/nowhere')).body.error.name).toBe('NotFoundError')
    })

    test('the tracker is served gzipped with an ETag', async () => {
      const response = await fetch(`${target.url}/tracker.js`, { headers: { 'accept-encoding': 'gzip' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('etag')).toBeTruthy()
      expect(await response.text()).toContain('svc_click_id')
    })
  })
}
