// docs/decisions.md, Outbound webhooks: events enter the outbox in the transaction of the change,
// so a crash loses none. Thousands of sales are made while the receiver is down, the server is
// killed with -9, the receiver comes back, and after the restart (and deliveries/retry) every
// sale's sale.created arrives, each with exactly one distinct webhook-id.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'
import { startReceiver } from '../outbox/receiver.ts'
import { spawnServer } from './spawn.ts'

const SALES = 2000

test('kill -9 with thousands of undelivered events: after the restart each sale.created arrives, one webhook-id per sale', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-crash-'))
  const receiver = await startReceiver()
  receiver.state.mode = 503
  const env = { DATABASE_PATH: join(dir, 'svc.db'), WEBHOOKS_ALLOW_PRIVATE: 'true', SVC_RATE_LIMIT_SCALE: '1000' }
  const call = async (url: string, method: string, path: string, body?: unknown, token = ADMIN_TOKEN) => {
    const reply = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: reply.status, body: (await reply.json()) as any }
  }
  try {
    let server = await spawnServer([process.execPath, 'src/main.ts'], env)
    const account = await call(server.url, 'POST', '/api/v1/admin/accounts', { email: 'o@crash.test' })
    const program = await call(server.url, 'POST', '/api/v1/admin/programs', {
      account_id: account.body.data.account_id,
      name: 'Crash',
      domain: 'crash.test',
      commission_type: 'recurring_percent',
      commission_rate: 10,
    })
    const { program_id: programId, api_key: key } = program.body.data
    const hook = await call(server.url, 'POST', `/api/v1/admin/programs/${programId}/webhooks`, {
      url: receiver.url,
      events: ['sale.created'],
    })
    const partner = await call(server.url, 'POST', `/api/v1/admin/programs/${programId}/partners`, { name: 'P' })
    await call(server.url, 'POST', `/api/v1/admin/programs/${programId}/links`, {
      partner_id: partner.body.data.partner_id,
      short_link: 'crashlink',
    })
    const click = await fetch(`${server.url}/api/v1/track/click`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ affiliate_url: 'https://crash.test/?aff=crashlink' }),
    }).then((r) => r.json() as Promise<any>)
    await call(server.url, 'POST', '/api/v1/track/lead', { click_id: click.click_id, customer_key: 'c1' }, key)
    // Sales in parallel batches while every delivery fails.
    for (let i = 0; i < SALES; i += 100) {
      const batch = Array.from({ length: Math.min(100, SALES - i) }, (_, j) =>
        call(server.url, 'POST', '/api/v1/track/sale', { transaction_id: `t-${i + j}`, amount_cents: 1000, customer_key: 'c1' }, key),
      )
      for (const reply of await Promise.all(batch)) expect(reply.status).toBe(200)
    }
    server.kill('SIGKILL')
    await server.exited

    receiver.state.mode = 200
    server = await spawnServer([process.execPath, 'src/main.ts'], env)
    // The failed first attempts wait for their retry; the operator asks for all of them now.
    const retried = await call(server.url, 'POST', `/api/v1/admin/webhooks/${hook.body.data.webhook_id}/deliveries/retry`)
    expect(retried.body.data.queued).toBeGreaterThan(0)
    const bySale = new Map<string, Set<string>>()
    const hits = await receiver.waitFor(() => {
      bySale.clear()
      for (const hit of receiver.hits) {
        if (hit.json.type !== 'sale.created') continue
        const ids = bySale.get(hit.json.data.transaction_id) ?? new Set<string>()
        ids.add(hit.id)
        bySale.set(hit.json.data.transaction_id, ids)
      }
      return bySale.size === SALES && receiver.hits.length >= SALES
    }, 40_000)
    expect(hits.length).toBeGreaterThanOrEqual(SALES)
    expect(bySale.size).toBe(SALES)
    for (const ids of bySale.values()) expect(ids.size).toBe(1)
    await server.stop()
  } finally {
    await receiver.close()
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)
