import { createHash, createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { processors, type ProcessorName } from '../processors/index.ts'
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

/** The id and type of a saved event as each processor writes them, for the CLI's line. */
function describe(name: ProcessorName, event: any): { id: string; type: string } {
  switch (name) {
    case 'stripe':
      return { id: event?.id ?? 'event', type: event?.type ?? 'unknown type' }
    case 'paddle':
      return { id: event?.event_id ?? 'event', type: event?.event_type ?? 'unknown type' }
    case 'lemonsqueezy':
      return { id: `${event?.data?.type ?? 'object'} ${event?.data?.id ?? ''}`.trim(), type: event?.meta?.event_name ?? 'unknown type' }
    case 'polar':
      return { id: event?.data?.id ?? 'event', type: event?.type ?? 'unknown type' }
  }
}

/**
 * `svc <processor> replay FILE` (stripe, paddle, lemonsqueezy, polar): re-delivers a saved event to
 * this server, signed as the processor would sign it, to the program's route (--program-id) or,
 * for Stripe, the Connect route (--connect). The file is sent byte for byte, since the signature
 * covers the exact payload. Polar's delivery id (webhook-id) is derived from the file, so that a
 * second replay of it is the same delivery.
 */
export function processorReplay(name: ProcessorName) {
  const processor = processors[name]
  const env = `SVC_${name.toUpperCase()}_WEBHOOK_SECRET`
  const usage = `Usage: svc ${name} replay FILE (--program-id ID${name === 'stripe' ? ' | --connect' : ''}) [--secret SECRET]`
  return async (ctx: Ctx): Promise<void> => {
    const [sub, file, ...rest] = ctx.args
    if (sub !== 'replay') throw usageError(sub ? `Unknown ${name} command: ${sub}. Valid: replay` : `Usage: svc ${name} replay FILE`)
    if (!file || rest.length > 0) throw usageError(usage)

    const programId = ctx.flags['program-id']
    const connect = ctx.flags.connect === true
    if (connect && name !== 'stripe') throw usageError('--connect is for Stripe Connect events only')
    if (connect === (typeof programId === 'string'))
      throw usageError(name === 'stripe' ? 'Give exactly one of --program-id ID or --connect' : 'Give --program-id ID')
    if (typeof programId === 'string' && !flagValues.programId.safeParse(programId).success)
      throw usageError(`--program-id must be a number (got ${programId})`)
    const secret = (ctx.flags.secret as string | undefined) || ctx.env[env]
    if (!secret) throw usageError(`No webhook secret. Pass --secret or set ${env}.`)
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
      throw usageError(`${file} is not JSON (expected a saved ${processor.label} event)`)
    }

    const path = connect ? '/api/v1/webhooks/stripe' : `/api/v1/webhooks/${name}/${programId}`
    const deliveryId = `msg_svc_${createHash('sha256').update(payload).digest('hex').slice(0, 24)}`
    const reply = await call(ctx, 'POST', path, { raw: payload, headers: processor.sign(payload, secret, timestamp, deliveryId) })
    const { id, type } = describe(name, event)
    show(ctx, reply.body, () => ctx.out(`Delivered ${id} (${type}) to ${path}.`))
  }
}

function parseTimestamp(flag: string | boolean | undefined): number {
  if (flag === undefined) return Math.floor(Date.now() / 1000)
  const seconds = flagValues.timestamp.safeParse(flag)
  if (!seconds.success) throw usageError('--timestamp must be Unix seconds')
  return seconds.data
}
