// docs/webhooks.md, payout.failed: payouts cannot fail through the API yet (sending them is a later
// issue), so the test drives the one function the payout rails will call, on the running server's
// own dependencies (Bun only: the Deno server runs in another process), and a real receiver
// verifies the event with the official standardwebhooks package.
import { expect, test } from 'bun:test'
import { payoutFailed } from '../../src/tracking/failed-payout.ts'
import { unique } from '../http/track/kit.ts'
import { hookedServer } from '../outbox/receiver.ts'

const server = hookedServer()

test('payoutFailed sends payout.failed with the payout as listed and its failure; an unknown payout sends nothing', async () => {
  const { api, k, receiver } = server
  const f = await api.setupProgram({ holding_period_days: 0 })
  const made = await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: receiver.url, events: ['payout.failed'] })
  const key = unique('c')
  await k.customer(f, key)
  expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: 10000 })).status).toBe(200)
  const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
  const payoutId = run.body.data[0].payout_id as number
  const failure = { code: 'account_closed', message: 'The receiving account is closed' }
  expect(await payoutFailed(api.server.deps, payoutId, failure)).toBe(true)
  expect(await payoutFailed(api.server.deps, 999_999, failure)).toBe(false)
  const [hit] = await receiver.waitFor((hits) => hits.length > 0)
  const event = receiver.verify(hit!, made.body.data.secret) as { type: string; data: Record<string, unknown> }
  expect(event.type).toBe('payout.failed')
  expect(event.data).toMatchObject({ payout_id: payoutId, program_id: f.programId, amount_cents: 1000, status: 'pending', failure })
  await Bun.sleep(100)
  expect(receiver.hits).toHaveLength(1)
})
