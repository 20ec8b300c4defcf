// docs/decisions.md, Outbound webhooks: the two rules of the webhooks that are about time, on the
// injected clock. The old secret signs for 24 hours after a rotation and not after; an endpoint with
// only failures for 3 days is set inactive and its account is emailed.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, minutes, startApi } from '../../helpers.ts'
import { type Receiver, startReceiver } from '../../outbox/receiver.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'

const HOUR = 3_600_000

let api: Api
let receiver: Receiver
let smtp: Smtp
beforeAll(async () => {
  receiver = await startReceiver()
  smtp = await startSmtp()
  api = await startApi({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', SVC_RATE_LIMIT_SCALE: '1000', SMTP_URL: smtp.url } })
})
afterAll(async () => {
  await api.stop()
  await receiver.close()
  await smtp.stop()
})

let n = 0

/** An account with the owner's email, its program, and one endpoint on the receiver for `webhook.test` only. */
async function endpointOfOwner() {
  const owner = `hooks-owner-${++n}-${Math.random().toString(36).slice(2, 7)}@shop.test`
  const account = await api.admin('POST', '/accounts', { email: owner })
  const program = await api.admin('POST', '/programs', {
    account_id: account.body.data.account_id,
    name: `Hooked ${n}`,
    domain: 'shop.test',
    commission_type: 'percent',
    commission_rate: 10,
  })
  const programId = program.body.data.program_id as number
  const made = await api.admin('POST', `/programs/${programId}/webhooks`, { url: receiver.url, events: ['webhook.test'] })
  expect(made.status).toBe(201)
  return { owner, programId, programName: `Hooked ${n}`, hook: made.body.data as { webhook_id: number; secret: string } }
}

/** Sends a test event now and answers the request the receiver got for it. */
async function testHit(webhookId: number) {
  const start = receiver.hits.length
  const sent = await api.admin('POST', `/webhooks/${webhookId}/test`)
  expect(sent.status).toBe(200)
  const [hit] = (await receiver.waitFor((h) => h.length > start)).slice(start)
  return hit!
}

test('the old secret signs for 24 hours after a rotation, and not a minute after', async () => {
  const { hook } = await endpointOfOwner()
  const rotated = (await api.admin('POST', `/webhooks/${hook.webhook_id}/secret`)).body.data.secret as string
  api.clock.advance(24 * HOUR - minutes(1))
  const during = await testHit(hook.webhook_id)
  expect(during.signature.split(' ')).toHaveLength(2)
  expect(receiver.verify(during, hook.secret)).toBeTruthy()
  api.clock.advance(minutes(1))
  const after = await testHit(hook.webhook_id)
  expect(after.signature.split(' ')).toHaveLength(1)
  expect(receiver.verify(after, rotated)).toBeTruthy()
  expect(() => receiver.verify(after, hook.secret)).toThrow()
})

test("an endpoint with only failures for 3 days is set inactive and its account's owner is emailed", async () => {
  const { owner, programId, programName, hook } = await endpointOfOwner()
  const turnedOff = async () => {
    const all = (await api.admin('GET', `/emails?program_id=${programId}`)).body.data as { to: string; subject: string }[]
    return all.filter((m) => m.subject === `A webhook endpoint of ${programName} was turned off`)
  }
  const active = async () => (await api.admin('GET', `/programs/${programId}/webhooks`)).body.data[0].active as boolean
  receiver.state.mode = 500
  try {
    for (let hours = 0; hours < 72; hours += 6) {
      await testHit(hook.webhook_id)
      expect(await active()).toBe(true)
      expect(await turnedOff()).toEqual([])
      api.clock.advance(6 * HOUR)
    }
    // 3 days after the first failure: the next failed attempt (a retry asked now) turns it off.
    expect((await api.admin('POST', `/webhooks/${hook.webhook_id}/deliveries/retry`)).status).toBe(200)
    for (let i = 0; i < 250 && (await active()); i++) await Bun.sleep(20)
    expect(await active()).toBe(false)
    expect((await turnedOff()).map((m) => m.to)).toEqual([owner])
  } finally {
    receiver.state.mode = 200
  }
})
