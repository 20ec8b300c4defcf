import { Buffer } from 'node:buffer'
import { createHmac } from 'node:crypto'
import { shortError } from '../sender.ts'
import type { AttemptJob, AttemptOutcome } from './attempt.ts'
import { post } from './post.ts'
import { AttemptError } from './target.ts'

// One attempt signed and sent: what the delivery worker runs (worker.ts), and the main thread when
// the worker cannot (sender-thread.ts loads it then). Apart from attempt.ts, whose records the pool
// writes, so that a start loads no HTTP client before its first attempt (issue 36).

/**
 * The Standard Webhooks signature of one attempt: `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed with the bytes after `whsec_` (base64-decoded).
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/** Signs and sends one attempt; never throws (a failure is an outcome). */
export async function runAttempt(job: AttemptJob): Promise<AttemptOutcome> {
  // The header carries the attempt's real time: receivers compare it with their own clocks.
  const timestamp = Math.floor(Date.now() / 1000)
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'svc-webhooks',
    'webhook-id': job.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': job.secrets.map((secret) => signature(secret, job.eventId, timestamp, job.body)).join(' '),
  }
  try {
    const status = await post(new URL(job.url), job.body, headers, job.allowPrivate, job.timeoutMs)
    if (status >= 200 && status <= 299) return { ok: true, status }
    return { ok: false, error: `HTTP ${status}`, statusCode: status }
  } catch (error) {
    return { ok: false, error: shortError(error), statusCode: error instanceof AttemptError ? error.statusCode : null }
  }
}
