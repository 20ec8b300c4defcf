// The delivery thread (src/outbox/webhooks/sender-thread.ts): attempts are signed and sent from a
// worker; when the worker cannot start, they are sent from the main thread, which loads the HTTP
// client then (issue 36), and the log says so once. Real receivers, signatures verified.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import type { AttemptJob } from '../../src/outbox/webhooks/attempt.ts'
import { SenderThread } from '../../src/outbox/webhooks/sender-thread.ts'
import { startReceiver } from './receiver.ts'

const SECRET = `whsec_${Buffer.from('a sender-thread test secret, 32b').toString('base64')}`
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

const job = (n: number): AttemptJob => ({
  url: receiver.url,
  secrets: [SECRET],
  eventId: `evt_sender_thread_${n}`,
  body: JSON.stringify({ type: 'webhook.test', n }),
  timeoutMs: 5_000,
  allowPrivate: true,
})

/** The hits of the jobs given, each verified as a receiver verifies them. */
const verified = (ids: string[]) =>
  receiver.hits
    .filter((hit) => ids.includes(hit.id))
    .map((hit) =>
      new Webhook(SECRET).verify(hit.body, {
        'webhook-id': hit.id,
        'webhook-timestamp': hit.timestamp,
        'webhook-signature': hit.signature,
      }),
    )

test('attempts are signed and sent from the worker', async () => {
  const log: Record<string, unknown>[] = []
  const thread = new SenderThread((line) => log.push(line))
  try {
    const outcomes = await Promise.all([job(1), job(2)].map((j) => thread.send(j)))
    expect(outcomes).toEqual([
      { ok: true, status: 200 },
      { ok: true, status: 200 },
    ])
    expect(verified(['evt_sender_thread_1', 'evt_sender_thread_2'])).toHaveLength(2)
    expect(log).toEqual([])
  } finally {
    thread.stop()
  }
})

test('a worker that cannot start: its attempts and the later ones are sent from this thread, said once', async () => {
  const log: Record<string, unknown>[] = []
  const thread = new SenderThread((line) => log.push(line), new URL('./no-such-worker.ts', import.meta.url).href)
  try {
    const first = await Promise.all([job(3), job(4)].map((j) => thread.send(j)))
    const later = await thread.send(job(5))
    expect([...first, later]).toEqual([
      { ok: true, status: 200 },
      { ok: true, status: 200 },
      { ok: true, status: 200 },
    ])
    expect(verified(['evt_sender_thread_3', 'evt_sender_thread_4', 'evt_sender_thread_5'])).toHaveLength(3)
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({ level: 'error', msg: 'webhook delivery worker failed; attempts are sent from the main thread' })
  } finally {
    thread.stop()
  }
})
