import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Ctx } from './context.ts'
import { flagValues } from './args.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { show } from './output.ts'

/**
 * The Stripe-Signature header value for `payload` at `timestamp` (Unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<payload>">`, Stripe's scheme.
 */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')
  return `t=${timestamp},v1=${mac}`
}

/**
 * `svc stripe replay FILE`: re-delivers a saved Stripe event to this server,
 * signed as Stripe would sign it, to the program's route (--program-id) or the
 * Connect route (--connect). The file is sent byte for byte, since the
 * signature covers the exact payload.
 */
export async function stripeReplay(ctx: Ctx): Promise<void> {
  const [sub, file, ...rest] = ctx.args
  if (sub !== 'replay') throw usageError(sub ? `Unknown stripe command: ${sub}. Valid: replay` : 'Usage: svc stripe replay FILE')
  if (!file || rest.length > 0) throw usageError('Usage: svc stripe replay FILE (--program-id ID | --connect) [--secret SECRET]')

  const programId = ctx.flags['program-id']
  const connect = ctx.flags.connect === true
  if (connect === (typeof programId === 'string')) throw usageError('Give exactly one of --program-id ID or --connect')
  if (typeof programId === 'string' && !flagValues.programId.safeParse(programId).success)
    throw usageError(`--program-id must be a number (got ${programId})`)
  const secret = (ctx.flags.secret as string | undefined) || ctx.env.SVC_STRIPE_WEBHOOK_SECRET
  if (!secret) throw usageError('No webhook secret. Pass --secret or set SVC_STRIPE_WEBHOOK_SECRET.')
  const timestamp = parseTimestamp(ctx.flags.timestamp)

  let payload: string
  try {
    payload = readFileSync(file, 'utf8')
  } catch (e) {
    throw usageError(`Cannot read ${file}: ${(e as Error).message}`)
  }
  let event: any
  try {
    event = JSON.parse(payload)
  } catch {
    throw usageError(`${file} is not JSON (expected a saved Stripe event)`)
  }

  const path = connect ? '/api/v1/webhooks/stripe' : `/api/v1/webhooks/stripe/${programId}`
  const reply = await call(ctx, 'POST', path, {
    raw: payload,
    headers: { 'stripe-signature': stripeSignature(payload, secret, timestamp) },
  })
  show(ctx, reply.body, () => ctx.out(`Delivered ${event?.id ?? 'event'} (${event?.type ?? 'unknown type'}) to ${path}.`))
}

function parseTimestamp(flag: string | boolean | undefined): number {
  if (flag === undefined) return Math.floor(Date.now() / 1000)
  const seconds = flagValues.timestamp.safeParse(flag)
  if (!seconds.success) throw usageError('--timestamp must be Unix seconds')
  return seconds.data
}
