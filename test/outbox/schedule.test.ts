import { expect, test } from 'bun:test'
import { emailRetryAt, webhookRetryAt } from '../../src/outbox/schedule.ts'

const T0 = Date.parse('2026-06-01T00:00:00Z')
const S = 1000
const M = 60 * S
const H = 60 * M

test('emails are retried after 10 s, 1 min, 5 min, 30 min, 2 h, then every 6 h until 3 days after they were queued', () => {
  const waits = [10 * S, M, 5 * M, 30 * M, 2 * H, 6 * H, 6 * H]
  for (const [i, wait] of waits.entries()) expect(emailRetryAt(i + 1, T0, T0 + H)).toBe(T0 + H + wait)
  // A try that would fall past 72 hours after queuing is not made: failed.
  expect(emailRetryAt(12, T0, T0 + 66 * H)).toBe(T0 + 72 * H)
  expect(emailRetryAt(13, T0, T0 + 66 * H + 1)).toBeNull()
})

test('webhook deliveries are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed', () => {
  const waits = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]
  for (const [i, wait] of waits.entries()) expect(webhookRetryAt(i + 1, T0)).toBe(T0 + wait)
  expect(webhookRetryAt(8, T0)).toBeNull()
})
