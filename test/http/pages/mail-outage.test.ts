// docs/decisions.md, Email: a mail server that is down loses nothing. Attempts are recorded, retried
// on the schedule as the injected clock moves, and the operator sees each email's status.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'

let api: Api
let smtp: Smtp
beforeAll(async () => {
  smtp = await startSmtp()
  await smtp.stop()
  api = await startApi({ env: { SMTP_URL: smtp.url } })
})
afterAll(async () => {
  await api.stop()
  await smtp.stop()
})

const emails = async (query = '') => (await api.admin('GET', `/emails${query}`)).body.data as Record<string, any>[]

/** An account (its owner's email) and a program that partners join on `signup` terms; answers the program id. */
async function programOf(owner: string, name: string, domain: string, signup: 'open' | 'approval'): Promise<number> {
  const account = await api.admin('POST', '/accounts', { email: owner })
  const program = await api.admin('POST', '/programs', {
    account_id: account.body.data.account_id,
    name,
    domain,
    commission_type: 'percent',
    commission_rate: 10,
    partner_signup: signup,
  })
  return program.body.data.program_id
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, step?: () => void): Promise<T> {
  let value = await read()
  for (let i = 0; i < 200 && !done(value); i++) {
    step?.()
    await Bun.sleep(25)
    value = await read()
  }
  return value
}

test('an email queued while the mail server is down is retried after 10 s and arrives once it is back', async () => {
  const programId = await programOf('owner@outage.test', 'Outage Shop', 'outage.test', 'open')
  const joined = await api.call('POST', `/join/${programId}`, { body: { name: 'Dee', email: 'dee@partner.test' } })
  expect(joined.body.data.status).toBe('received')
  // Both emails (the approval, the owner's) were tried once and wait for their retry.
  const waiting = await until(
    () => emails(`?program_id=${programId}`),
    (rows) => rows.length === 2 && rows.every((r) => r.attempts === 1),
  )
  for (const row of waiting) {
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.any(String), program_id: programId })
    expect(Date.parse(row.next_attempt_at) - api.clock.now()).toBe(10_000)
    expect(row).not.toHaveProperty('text_body')
  }
  await smtp.start()
  api.clock.advance(10_000)
  const received = await smtp.waitFor(2)
  expect(received.map((m) => m.to[0]).sort()).toEqual(['dee@partner.test', 'owner@outage.test'])
  const sent = await until(
    () => emails(`?program_id=${programId}&status=sent`),
    (rows) => rows.length === 2,
  )
  expect(sent.every((r) => r.sent_at !== null && r.attempts === 2)).toBe(true)
  // Nothing is sent twice: the sender moves on.
  api.clock.advance(3_600_000)
  await Bun.sleep(200)
  expect(smtp.received).toHaveLength(2)
})

test('an email that cannot be delivered for 3 days is failed, with its last error', async () => {
  await smtp.stop()
  const programId = await programOf('second@outage.test', 'Failing Shop', 'failing.test', 'approval')
  await api.call('POST', `/join/${programId}`, { body: { name: 'Fay', email: 'fay@partner.test' } })
  const failed = await until(
    () => emails(`?program_id=${programId}&status=failed`),
    (rows) => rows.length === 2,
    () => api.clock.advance(3 * 3_600_000),
  )
  expect(failed).toHaveLength(2)
  expect(failed[0]).toMatchObject({ status: 'failed', last_error: expect.any(String) })
  expect(failed[0]!.attempts).toBeGreaterThanOrEqual(2)
  expect((await api.admin('GET', '/emails?status=lost')).status).toBe(400)
  expect((await api.admin('GET', '/emails?program_id=999999')).status).toBe(404)
})
